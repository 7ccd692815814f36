import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { getSettlement, type SettlementDetail, type SettlementLineView } from '@app/shared/contracts/settlement';
import { callContract } from '../../../app/contractClient';
import { formatMoney } from '../../../crud/format';
import { LINE_CHARGE_KEYS, lineAmountKeys } from './SettlementLines';
import './settlementPrint.css';

/**
 * The statement for the client on paper (issue 22 item 6): header block, every line, the totals and the 用工单位确认
 * signature block, A4 landscape. Only what the server stored: the header and lines of `GET /api/settlement/:id`,
 * read page by page (500 lines a call) — nothing is recomputed here.
 */

const PRINT_PAGE = 500;

async function loadWholeStatement(id: number): Promise<SettlementDetail> {
  const first = await callContract(getSettlement, { params: { id }, query: { page: 0, size: PRINT_PAGE } });
  const lines: SettlementLineView[] = [...first.lines];
  for (let page = 1; page * PRINT_PAGE < first.lineTotal; page++) {
    lines.push(...(await callContract(getSettlement, { params: { id }, query: { page, size: PRINT_PAGE } })).lines);
  }
  return { ...first, lines };
}

export default function SettlementPrintPage() {
  const { t } = useTranslation('settlement');
  const id = Number(useParams().id);
  const q = useQuery({ queryKey: ['settlement', 'print', id], queryFn: () => loadWholeStatement(id), enabled: Number.isInteger(id) && id > 0, retry: false });
  const s = q.data;
  if (q.isError) return <Alert type="error" showIcon message={t('printFailed')} style={{ margin: 24 }} />;
  if (!s) return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} data-testid="settlement-print-loading" />;
  const money = (v: unknown) => formatMoney(v);
  const amountKeys = lineAmountKeys(s);
  const title = `${s.companyName ?? ''} ${s.month} ${t('title')}`;
  const header: [string, string][] = [
    [t('printPage.company'), s.companyName ?? ''],
    [t('printPage.dispatchCompany'), s.dispatchCompany ?? ''],
    [t('month'), s.month],
    [t('version'), t('versionN', { n: s.version })],
    [t('heads'), String(s.header.heads)],
    [t('vatRegime'), `${t(`regime.${s.terms.vatRegime}`)} ${s.terms.vatRate}`],
    [t('siMonth'), s.terms.siMonth],
    [t('passThrough'), money(s.header.passThrough)],
    [t('line.fee'), money(s.header.sums.fee)],
    [t('subtotal'), money(s.header.subtotal)],
    [t('vat'), money(s.header.vat)],
    [t('surtax'), money(s.header.surtax)],
    [t('currentDue'), money(s.header.currentDue)],
    [t('arrearsIn'), money(s.header.arrearsIn)],
    [t('totalDue'), money(s.header.totalDue)],
  ];
  return (
    <div className="settlement-print" data-testid="settlement-print">
      <div className="settlement-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="settlement-print-now">
          {t('print')}
        </Button>
        <span>{t('printPage.hint', { count: s.lines.length })}</span>
      </div>
      <h1>{title}</h1>
      <table className="settlement-print-header" data-testid="settlement-print-header">
        <tbody>
          {Array.from({ length: Math.ceil(header.length / 3) }, (_, r) => (
            <tr key={header[r * 3][0]}>
              {header.slice(r * 3, r * 3 + 3).map(([label, value]) => (
                <td key={label}>
                  <span className="label">{label}</span>
                  <span className={label === t('totalDue') ? 'value strong' : 'value'}>{value}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <table className="settlement-print-lines" data-testid="settlement-print-lines">
        <thead>
          <tr>
            <th>{t('line.seq')}</th>
            <th>{t('line.staffName')}</th>
            <th>{t('line.idCardMasked')}</th>
            {amountKeys.map((k) => (
              <th key={k}>{t(`line.${k}`)}</th>
            ))}
            {s.header.itemNames.map((n) => (
              <th key={`i${n}`}>{n}</th>
            ))}
            {LINE_CHARGE_KEYS.map((k) => (
              <th key={k}>{t(`line.${k}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.lines.map((l) => (
            <tr key={l.seq}>
              <td>{l.seq}</td>
              <td className="text">{l.staffName}</td>
              <td className="text">{l.idCardMasked}</td>
              {amountKeys.map((k) => (
                <td key={k}>{money(l[k])}</td>
              ))}
              {l.items.map((v, i) => (
                <td key={`i${s.header.itemNames[i]}`}>{money(v)}</td>
              ))}
              {LINE_CHARGE_KEYS.map((k) => (
                <td key={k}>{money(l[k])}</td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="settlement-print-sums">
            <td colSpan={3} className="text">
              {t('sumAll', { count: s.header.lines })}
            </td>
            {amountKeys.map((k) => (
              <td key={k}>{money(s.header.sums[k])}</td>
            ))}
            {s.header.itemSums.map((v, i) => (
              <td key={`i${s.header.itemNames[i]}`}>{money(v)}</td>
            ))}
            {LINE_CHARGE_KEYS.map((k) => (
              <td key={k}>{money(s.header.sums[k])}</td>
            ))}
          </tr>
        </tfoot>
      </table>
      <section className="settlement-print-sign" data-testid="settlement-print-sign">
        <p>{t('printPage.confirmText')}</p>
        <div className="sign-row">
          <div>
            <p>
              {t('printPage.clientSeal')}
              <span className="blank" />
            </p>
            <p>
              {t('printPage.signer')}
              <span className="blank" />
            </p>
            <p>
              {t('printPage.date')}
              <span className="blank" />
            </p>
          </div>
          <div>
            <p>
              {t('printPage.agentSeal')}
              {s.dispatchCompany ?? ''}
            </p>
            <p>
              {t('printPage.signer')}
              <span className="blank" />
            </p>
            <p>
              {t('printPage.date')}
              <span className="blank" />
            </p>
          </div>
        </div>
      </section>
    </div>
  );
}
