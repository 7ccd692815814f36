import { permissionCodes } from '@app/shared/resource';
import { CONTRACT_COLUMNS, staffResource } from '@app/shared/resources/staff';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { BatchDeleteButton, type DialogMode, ExcelButtons, ResourceTable, type Row, SearchBar, SearchItem, dictNames, useBatchDelete, useResourceList } from '../../crud';
import '../../crud/crud.css';
import { resourceImportUrl } from '../../crud/resourceClient';
import { CompanySelect, useChosenCompany, useCompanies } from './companies';
import { STAFF_ACCOUNTS_CODES, StaffAccountRowButton, StaffAccountsButton, StaffAccountsDialog, useStaffAccounts } from './StaffAccounts';
import { StaffDialog } from './StaffDialog';

/**
 * The staff-based screens: the staff list (员工管理), the contract list (合同管理) and the contract reminder
 * list (合同到期提醒, restricted to 已提醒). A company is always chosen (the first one preselected); the list
 * loads only once one is chosen, and clearing it shows '请选择一个单位'. The staff list offers the generic
 * page's batch delete (checkboxes + 删除 with '你确定删除选中的数据吗？') and 为员工开通账号 for a row or the checked
 * rows (StaffAccounts) to whoever may both create users and read staff, as the server checks.
 */

export type StaffVariant = 'staff' | 'contract' | 'contractWarn';

const REMINDED = '已提醒';
const DICT_NAMES = [...dictNames(staffResource.fields), 'dispatch_company'];
const CONTRACT_FIELDS = CONTRACT_COLUMNS.map((n) => staffResource.fields.find((f) => f.name === n)).filter((f): f is NonNullable<typeof f> => !!f);

const EXCLUDED: Record<StaffVariant, string[]> = {
  staff: ['companyId', 'contractState', 'contractWarnState'],
  contract: ['companyId', 'censusType', 'jobState', 'phone'],
  contractWarn: ['companyId', 'censusType', 'jobState', 'phone', 'contractWarnState'],
};

export function StaffScreen({ variant }: { variant: StaffVariant }) {
  const { t } = useTranslation('accounts');
  const def = staffResource;
  const { hasPermission } = useAuth();
  const dicts = useDicts(DICT_NAMES);
  const { companies, loading: companiesLoading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const baseParams = useMemo(
    () => ({ companyId: companyId ?? undefined, ...(variant === 'contractWarn' ? { contractWarnState: REMINDED } : {}) }),
    [companyId, variant],
  );
  const list = useResourceList(def, { baseParams, enabled: companyId !== null });
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);

  const isStaff = variant === 'staff';
  const can = {
    create: isStaff && hasPermission(permissionCodes(def, 'create')),
    edit: hasPermission(permissionCodes(def, 'edit')),
    delete: isStaff && hasPermission(permissionCodes(def, 'delete')),
    accounts: isStaff && hasPermission(STAFF_ACCOUNTS_CODES.create) && hasPermission(STAFF_ACCOUNTS_CODES.readStaff),
  };
  const fields = isStaff ? undefined : CONTRACT_FIELDS;
  // the checkboxes serve batch delete and 为员工开通账号 alike
  const batch = useBatchDelete(def, list, can.delete || can.accounts);
  const accounts = useStaffAccounts();
  const openAccounts = async (ids: number[]) => {
    if (await accounts.run(ids)) batch.clear();
  };
  const chooseCompany = (id: number | null) => {
    batch.clear();
    setCompanyId(id);
  };

  const toolbar = isStaff ? (
    <>
      {can.create && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} disabled={companyId === null} data-testid="crud-add">
          {t('add', { ns: 'crud' })}
        </Button>
      )}
      {can.delete && <BatchDeleteButton batch={batch} />}
      {can.accounts && (
        <StaffAccountsButton count={batch.selected.length} loading={accounts.running} onConfirm={() => void openAccounts(batch.selected as number[])} />
      )}
      <ExcelButtons
        def={def}
        filters={list.filters}
        baseParams={{ companyId: companyId ?? undefined }}
        canImport={companyId !== null}
        canTemplate
        importUrl={companyId !== null ? resourceImportUrl(def.name, { companyId }) : undefined}
      />
    </>
  ) : undefined;

  // the list needs a company: its filter comes first, labelled and marked required
  const companySelect = (
    <SearchItem label={t('company')} htmlFor="staff-company" required testId="staff-company-filter">
      <CompanySelect id="staff-company" value={companyId} onChange={chooseCompany} companies={companies} loading={companiesLoading} testId="company-select" />
    </SearchItem>
  );

  return (
    <Card className="crud-page" variant="borderless" data-testid={`accounts-${variant}-page`}>
      <SearchBar
        def={def}
        dicts={dicts}
        filters={list.filters}
        onSearch={(f) => {
          batch.clear();
          list.search(f);
        }}
        exclude={EXCLUDED[variant]}
        lead={companySelect}
      />
      {companyId !== null ? (
        <ResourceTable
          def={def}
          list={list}
          dicts={dicts}
          fields={fields}
          tableKey={`${def.name}-${variant}`}
          canEdit={can.edit}
          canDelete={can.delete}
          onEdit={(row) => setDialog({ mode: 'edit', record: row })}
          onDeleted={batch.onRowDeleted}
          forceActions={can.accounts}
          actionsWidth={can.accounts ? 160 : undefined}
          rowActions={
            can.accounts
              ? (row) => (
                  <StaffAccountRowButton
                    name={String(row.staffName ?? '')}
                    loading={accounts.pending.includes(row.id as number)}
                    disabled={accounts.running}
                    onConfirm={() => void openAccounts([row.id as number])}
                  />
                )
              : undefined
          }
          selection={batch.selection}
          toolbar={toolbar}
        />
      ) : (
        <div className="crud-disabled-hint" data-testid="choose-company-hint">
          <Empty description={t('chooseCompanyFirst')} />
        </div>
      )}
      {(can.create || can.edit) && (
        <StaffDialog
          open={!!dialog}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          dicts={dicts}
          companies={companies}
          defaultCompanyId={companyId}
          onClose={() => setDialog(null)}
        />
      )}
      {can.accounts && <StaffAccountsDialog result={accounts.result} onClose={accounts.close} />}
    </Card>
  );
}
