import { permissionCodes } from '@app/shared/resource';
import { CONTRACT_COLUMNS, staffResource } from '@app/shared/resources/staff';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { BatchDeleteButton, type DialogMode, ExcelButtons, ResourceTable, type Row, SearchBar, dictNames, useBatchDelete, useResourceList } from '../../crud';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from './companies';
import { StaffDialog } from './StaffDialog';

/**
 * The staff-based screens: the staff list (员工管理), the contract list (合同管理) and the contract reminder
 * list (合同到期提醒, restricted to 已提醒). A company is always chosen (the first one preselected); the list
 * loads only once one is chosen, and clearing it shows '请选择一个单位'. The staff list offers the generic
 * page's batch delete (checkboxes + 删除 with '你确定删除选中的数据吗？').
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
  };
  const fields = isStaff ? undefined : CONTRACT_FIELDS;
  const batch = useBatchDelete(def, list, can.delete);
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
      <BatchDeleteButton batch={batch} />
      <ExcelButtons
        def={def}
        filters={list.filters}
        baseParams={{ companyId: companyId ?? undefined }}
        canImport={companyId !== null}
        canTemplate
        importUrl={companyId !== null ? `/api/import/${def.name}?companyId=${companyId}` : undefined}
        onImported={() => void list.reload()}
      />
    </>
  ) : undefined;

  const companySelect = (
    <CompanySelect value={companyId} onChange={chooseCompany} companies={companies} loading={companiesLoading} testId="company-select" />
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
        extra={companySelect}
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
          onSaved={() => void list.reload()}
        />
      )}
    </Card>
  );
}
