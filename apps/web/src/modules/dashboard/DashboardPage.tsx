import { permissionCodes } from '@app/shared/resource';
import { companyResource } from '@app/shared/resources/company';
import { staffResource } from '@app/shared/resources/staff';
import { Card, Empty, Space, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { ResourceTable, dictNames, useResourceList } from '../../crud';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';

const COLUMNS = ['staffName', 'idCard', 'companyName', 'phone', 'contractType', 'contractStart', 'contractEnd', 'contractWarn', 'contractWarnState'];
const FIELDS = COLUMNS.map((n) => staffResource.fields.find((f) => f.name === n)).filter((f): f is NonNullable<typeof f> => !!f);
const DICT_NAMES = dictNames(staffResource.fields);
const SORT: [string, 'asc' | 'desc'][] = [['contractEnd', 'asc']];
/** The reminders need both lists: the company lookup and the staff rows. */
const NEEDED = [permissionCodes(companyResource, 'list'), permissionCodes(staffResource, 'list')];

/**
 * /dashboard (合同到期提醒): the staff of a company whose contract reminder is due
 * (`GET /api/accountsStaff/contractReminders?companyId=`), soonest end first, with their count.
 */
export default function DashboardPage() {
  const { t } = useTranslation('accounts');
  const { hasPermission } = useAuth();
  // Without the codes the reminders would only be refused by the server: say so instead of asking.
  if (!NEEDED.every((codes) => hasPermission(codes))) {
    return (
      <Card className="crud-page" variant="borderless" title={t('dashboard.title')} data-testid="dashboard-page">
        <Empty description={t('dashboard.noPermission')} data-testid="dashboard-no-permission" />
      </Card>
    );
  }
  return <ContractReminders />;
}

function ContractReminders() {
  const { t } = useTranslation('accounts');
  const def = staffResource;
  const dicts = useDicts(DICT_NAMES);
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const baseParams = useMemo(() => ({ companyId: companyId ?? undefined }), [companyId]);
  const list = useResourceList(def, {
    url: '/api/accountsStaff/contractReminders',
    baseParams,
    enabled: companyId !== null,
    defaultSort: SORT,
  });

  return (
    <Card className="crud-page" variant="borderless" title={t('dashboard.title')} data-testid="dashboard-page">
      <Space wrap align="center" className="crud-search" style={{ marginBottom: 12 }}>
        <CompanySelect value={companyId} onChange={setCompanyId} companies={companies} loading={loading} testId="company-select" />
        <Typography.Text data-testid="dashboard-count">{t('dashboard.count', { count: companyId === null ? 0 : list.total })}</Typography.Text>
      </Space>
      {companyId === null ? (
        <div className="crud-disabled-hint">{t('chooseCompanyFirst')}</div>
      ) : (
        <ResourceTable def={def} list={list} dicts={dicts} fields={FIELDS} tableKey="dashboard-contract-reminders" expandable={false} />
      )}
    </Card>
  );
}
