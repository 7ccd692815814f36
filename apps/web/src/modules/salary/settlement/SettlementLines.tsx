import { Input, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SettlementDetail, SettlementLineView } from '@app/shared/contracts/settlement';
import { formatMoney } from '../../../crud/format';

/**
 * The statement's lines as the server pages them (`GET /api/settlement/:id?page&size&keyword`): one page in the
 * table, a search by name or ID card above it; the totals row is the header's, i.e. of every line, not the page.
 */

export interface LinePaging {
  page: number;
  size: number;
  keyword: string;
}

const BASE_AMOUNT_KEYS = ['gross', 'personalSi', 'personalHf', 'tax', 'net', 'employerYanglao', 'employerYiliao', 'employerShiye', 'employerGongshang', 'employerGongjijin'] as const;
type AmountKey = (typeof BASE_AMOUNT_KEYS)[number] | 'employerBackPay';
/** The amount columns of a statement: 补缴社保(单位) only when some line has back pay (most months have none). */
export function lineAmountKeys(s: SettlementDetail): AmountKey[] {
  return s.header.sums.employerBackPay ? [...BASE_AMOUNT_KEYS, 'employerBackPay'] : [...BASE_AMOUNT_KEYS];
}
export const LINE_CHARGE_KEYS = ['disabledShare', 'unionFee', 'fee', 'total'] as const;

export function SettlementLines({ s, paging, onPaging, loading }: { s: SettlementDetail; paging: LinePaging; onPaging: (p: LinePaging) => void; loading: boolean }) {
  const { t } = useTranslation('settlement');
  const money = (v: unknown) => formatMoney(v);
  const amountKeys = lineAmountKeys(s);
  const m = (key: keyof SettlementLineView, width = 100) => ({ key, dataIndex: key, title: t(`line.${key}`), align: 'right' as const, width, render: money });
  const itemCols = s.header.itemNames.map((name, i) => ({ key: `item${i}`, title: name, align: 'right' as const, width: 90, render: (_: unknown, l: SettlementLineView) => money(l.items[i]) }));
  return (
    <>
      <Input.Search
        allowClear
        placeholder={t('lineSearch')}
        defaultValue={paging.keyword}
        onSearch={(v) => onPaging({ ...paging, page: 0, keyword: v.trim() })}
        style={{ maxWidth: 320 }}
        data-testid="settlement-line-search"
      />
      <Table<SettlementLineView>
        size="small"
        rowKey="seq"
        loading={loading}
        dataSource={s.lines}
        pagination={{
          current: paging.page + 1,
          pageSize: paging.size,
          total: s.lineTotal,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (n) => t('total', { count: n }),
          onChange: (p, size) => onPaging({ ...paging, page: size !== paging.size ? 0 : p - 1, size }),
        }}
        scroll={{ x: 1800 }}
        data-testid="settlement-lines"
        summary={() => (
          <Table.Summary fixed>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={3}>
                {t('sumAll', { count: s.header.lines })}
              </Table.Summary.Cell>
              {amountKeys.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 3} align="right">
                  {money(s.header.sums[k])}
                </Table.Summary.Cell>
              ))}
              {s.header.itemSums.map((v, i) => (
                <Table.Summary.Cell key={`i${s.header.itemNames[i]}`} index={3 + amountKeys.length + i} align="right">
                  {money(v)}
                </Table.Summary.Cell>
              ))}
              {LINE_CHARGE_KEYS.map((k, i) => (
                <Table.Summary.Cell key={k} index={3 + amountKeys.length + s.header.itemSums.length + i} align="right">
                  {money(s.header.sums[k])}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        )}
        columns={[
          { key: 'seq', dataIndex: 'seq', title: t('line.seq'), width: 60, fixed: 'left' },
          { key: 'staffName', dataIndex: 'staffName', title: t('line.staffName'), width: 90, fixed: 'left' },
          { key: 'idCardMasked', dataIndex: 'idCardMasked', title: t('line.idCardMasked'), width: 170 },
          ...amountKeys.map((k) => m(k)),
          ...itemCols,
          ...LINE_CHARGE_KEYS.map((k) => m(k, k === 'total' ? 110 : 100)),
        ]}
      />
    </>
  );
}
