import { AuditOutlined, DownloadOutlined } from '@ant-design/icons';
import { Card, DatePicker, Select, Space, Button, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportIitBonus, exportIitPersons, exportIitWage } from '@app/shared/contracts/iit';
import { useAuth } from '../../../app/auth';
import { contractCodes, downloadContract } from '../../../app/contractClient';
import { useDicts } from '../../../app/dict';
import { SearchItem, SearchRow } from '../../../crud/SearchBar';
import '../../../crud/crud.css';
import './iit.css';
import { ChangesPanel } from './ChangesPanel';
import { ReconcilePanel } from './ReconcilePanel';

/**
 * 薪资管理 › 个税申报 (issue 23 items 4-6): for a withholding agent (派遣单位) and month, the three ITS import
 * workbooks, ITS's calculated result reconciled person by person (each difference acknowledged with a reason; an open
 * one holds the month's 代发工资 export), and 增减员 against ITS's person list. Same look as 代发工资.
 */
const DISPATCH_DICT = ['dispatch_company'];

export default function IitPage() {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const dicts = useDicts(DISPATCH_DICT);
  const agents = useMemo(() => (dicts.dispatch_company ?? []).map((e) => e.label), [dicts]);
  const [chosen, setChosen] = useState<string | null>(null);
  const agent = chosen ?? agents[0] ?? null;
  const [month, setMonth] = useState(() => dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [year, setYear] = useState(() => dayjs().subtract(1, 'month').format('YYYY'));
  const [busy, setBusy] = useState<string | null>(null);
  const canExport = hasPermission(contractCodes(exportIitWage));

  const download = async (what: 'wage' | 'bonus' | 'persons') => {
    if (!agent) return;
    setBusy(what);
    try {
      if (what === 'bonus') await downloadContract(exportIitBonus, { query: { dispatchCompany: agent, year } });
      else await downloadContract(what === 'wage' ? exportIitWage : exportIitPersons, { query: { dispatchCompany: agent, month } });
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card className="crud-page" variant="borderless" data-testid="iit-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <AuditOutlined /> {t('iit.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('iit.hint')}</Typography.Paragraph>
      <SearchRow testId="iit-filters">
        <SearchItem label={t('iit.agent')}>
          <Select
            style={{ width: 260 }}
            data-testid="iit-agent"
            value={agent ?? undefined}
            onChange={setChosen}
            placeholder={t('iit.chooseAgent')}
            showSearch={{ optionFilterProp: 'label' }}
            options={agents.map((a) => ({ value: a, label: a }))}
          />
        </SearchItem>
        <SearchItem label={t('month')}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && setMonth(d.format('YYYY-MM'))} data-testid="iit-month" />
        </SearchItem>
        <SearchItem label={t('iit.year')}>
          <DatePicker picker="year" format="YYYY" allowClear={false} value={dayjs(`${year}-01-01`)} onChange={(d) => d && setYear(d.format('YYYY'))} data-testid="iit-year" />
        </SearchItem>
      </SearchRow>

      {canExport && (
        <section className="iit-section" data-testid="iit-exports">
          <Typography.Text strong>{t('iit.exports')}</Typography.Text>
          <Space wrap style={{ display: 'flex', margin: '8px 0 4px' }}>
            <Button type="primary" icon={<DownloadOutlined />} disabled={!agent} loading={busy === 'wage'} onClick={() => download('wage')} data-testid="iit-export-wage">
              {t('iit.exportWage')} · {month}
            </Button>
            <Button icon={<DownloadOutlined />} disabled={!agent} loading={busy === 'bonus'} onClick={() => download('bonus')} data-testid="iit-export-bonus">
              {t('iit.exportBonus')} · {year}
            </Button>
            <Button icon={<DownloadOutlined />} disabled={!agent} loading={busy === 'persons'} onClick={() => download('persons')} data-testid="iit-export-persons">
              {t('iit.exportPersons')} · {month}
            </Button>
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('iit.exportsHint')}
          </Typography.Text>
        </section>
      )}

      {agent && <ReconcilePanel agent={agent} month={month} />}
      {agent && <ChangesPanel agent={agent} month={month} />}
    </Card>
  );
}
