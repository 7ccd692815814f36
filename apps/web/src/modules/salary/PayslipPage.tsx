import { exportAllPayslips, exportOnePayslip, generatePayslips, importPayslips } from '@app/shared/contracts/payslips';
import { listConfirmLog } from '@app/shared/contracts/salaryRecords';
import type { FieldDef } from '@app/shared/resource';
import { permissionCodes } from '@app/shared/resource';
import { payslipResource } from '@app/shared/resources/payslip';
import { DownloadOutlined, FileTextOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Form, Modal, Select, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { callContract, contractCodes, downloadContract } from '../../app/contractClient';
import { type DialogMode, ExcelButtons, ResourceForm, ResourceTable, type Row, SearchBar, listFields, useResourceList, useResourceMutation } from '../../crud';
import '../../crud/crud.css';
import { CompanySelect, useCompanies } from '../accounts/companies';
import { PayslipPrintModal } from './PayslipSheet';
import { MyPayslipReceipts } from './payslipDelivery/MyPayslipReceipts';
import './salary.css';

/**
 * 工资条 (salary/acPayslip/index, also /acPayslip/index, the home of ordinary employees). Filters month, name,
 * idCard; sorted month desc then idCard asc; import (ADMIN or ACPAYSLIP_CREATE), export, edit dialog,
 * 生成工资条 from a confirmed salary month, and a printable sheet per person. An ordinary employee
 * (job 普通员工) sees only their own payslips (isFilter 1, idCard = username), no name/idCard search, only
 * the columns that carry data, and exports with the single-person export.
 */

const NEVER_SHOWN = new Set(['id', 'companyId', 'source', 'createTime', 'updateTime', 'xuhao']);
const LEAD = ['month', 'gonghao', 'name', 'idCard'];
const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** An employee's own list: their name and ID card are the same on every row, so not columns (U8). */
const OWN_NEVER_SHOWN = new Set(['name', 'idCard']);

/**
 * The fields an ordinary employee sees: those with a value in at least one of the rows. The month and the net
 * pay (实发) come first, so that a phone shows what was paid without scrolling (U8).
 */
export function fieldsWithData(rows: Row[]): FieldDef[] {
  const shown = payslipResource.fields.filter((f) => !NEVER_SHOWN.has(f.name) && !OWN_NEVER_SHOWN.has(f.name) && rows.some((r) => !isEmpty(r[f.name])));
  // when, what was paid, then the other amounts, then the free texts (bank, remark, company name)
  const rank = (f: FieldDef) => (f.name === 'month' ? 0 : f.name === 'shifa' ? 1 : LEAD.includes(f.name) ? 2 : f.kind === 'money' ? 3 : 4);
  return shown.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
}

/**
 * U5: amounts need 100 px, not the 120 of a generic money column, so that 实发 stays in view at 1440 px beside
 * the action column (a header that needs more still gets it: headerWidth.ts).
 */
function compactPayslipColumns(columns: ColumnsType<Row>): ColumnsType<Row> {
  const moneyFields = new Set(payslipResource.fields.filter((f) => f.kind === 'money').map((f) => f.name));
  return columns.map((c) => (moneyFields.has(String(c.key)) ? { ...c, width: 100 } : c.key === 'idCard' ? { ...c, width: 170 } : c.key === 'month' ? { ...c, width: 90 } : c));
}

export default function PayslipPage() {
  const { t } = useTranslation('salary');
  const def = payslipResource;
  const { user, hasPermission, isOrdinaryEmployee: ordinary } = useAuth();
  const ownParams = useMemo(() => (ordinary ? { isFilter: 1, idCard: user?.username } : {}), [ordinary, user?.username]);
  const list = useResourceList(def, { baseParams: ownParams });
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const [printing, setPrinting] = useState<Row | null>(null);
  const [generating, setGenerating] = useState(false);
  const [exportingOne, setExportingOne] = useState(false);

  const can = {
    import: !ordinary && hasPermission(contractCodes(importPayslips)),
    export: hasPermission(contractCodes(exportAllPayslips)) || ordinary,
    edit: !ordinary && hasPermission(permissionCodes(def, 'edit')),
    delete: !ordinary && hasPermission(permissionCodes(def, 'delete')),
    generate: !ordinary && hasPermission(contractCodes(generatePayslips)),
  };

  const fields = useMemo(() => (ordinary ? fieldsWithData(list.rows) : listFields(payslipResource)), [ordinary, list.rows]);
  const ordinaryWithout = ordinary && !list.loading && list.rows.length === 0 && list.total === 0;

  const exportMine = async () => {
    setExportingOne(true);
    try {
      await downloadContract(exportOnePayslip, { query: { ...list.filters, isFilter: 1, idCard: user?.username } }, `${def.excel?.fileName ?? '工资条'}.xlsx`);
    } catch {
      /* shown by the request layer */
    } finally {
      setExportingOne(false);
    }
  };

  const toolbar = (
    <>
      {can.generate && (
        <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setGenerating(true)} data-testid="payslip-generate">
          {t('payslip.generate')}
        </Button>
      )}
      {ordinary ? (
        <Button icon={<DownloadOutlined />} onClick={() => void exportMine()} loading={exportingOne} data-testid="payslip-export-one">
          {t('payslip.exportMine')}
        </Button>
      ) : (
        <ExcelButtons
          def={def}
          filters={list.filters}
          canImport={can.import}
          canExport={can.export}
          exportUrl={exportAllPayslips.path}
        />
      )}
    </>
  );

  return (
    <Card className="crud-page" variant="borderless" data-testid="payslip-page">
      {/* issue 24: the employee's published payslips to confirm or object to */}
      {ordinary ? <MyPayslipReceipts /> : null}
      <SearchBar def={def} filters={list.filters} onSearch={(f) => list.search(f)} exclude={ordinary ? ['name', 'idCard'] : []} />
      {ordinaryWithout ? (
        // an employee without payslips sees why the page is empty, not a table with only an 操作 header
        <Empty className="payslip-empty" data-testid="payslip-empty" description={t(Object.values(list.filters).some((v) => v != null && v !== '') ? 'payslip.noneForFilter' : 'payslip.noneYet')} />
      ) : (
      <ResourceTable
        def={def}
        list={list}
        fields={fields}
        tableKey={ordinary ? 'acPayslip-own' : 'acPayslip'}
        canEdit={can.edit}
        canDelete={can.delete}
        onEdit={(row) => setDialog({ mode: 'edit', record: row })}
        forceActions
        actionsWidth={can.edit || can.delete ? 110 : 70}
        columns={compactPayslipColumns}
        pageTotals={fields.filter((f) => f.kind === 'money').map((f) => f.name)}
        rowActions={(row) => (
          <Tooltip title={t('payslip.view')}>
            <Button size="small" icon={<FileTextOutlined />} onClick={() => setPrinting(row)} aria-label={t('payslip.view')} data-testid="payslip-view" />
          </Tooltip>
        )}
        toolbar={toolbar}
      />
      )}
      {can.edit && (
        <ResourceForm
          def={def}
          open={!!dialog}
          mode={dialog?.mode ?? 'edit'}
          record={dialog?.record}
          onClose={() => setDialog(null)}
        />
      )}
      {can.generate && <GenerateDialog open={generating} onClose={() => setGenerating(false)} />}
      <PayslipPrintModal row={printing} onClose={() => setPrinting(null)} />
    </Card>
  );
}

/** 生成工资条: a company and one of its confirmed months -> contracts/payslips.ts generatePayslips {companyId, month}. */
function GenerateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('salary');
  const { companies, loading } = useCompanies();
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [month, setMonth] = useState<string | null>(null);
  // the payslip lists refresh after generating (useResourceMutation)
  const generate = useResourceMutation<{ message?: string }, { companyId: number; month: string }>(payslipResource, {
    mutationFn: (body) => callContract(generatePayslips, { body }),
    success: (res) => res?.message || t('payslip.generated'),
    onSuccess: () => onClose(),
  });
  const chosen = companyId ?? (companies.length ? Number(companies[0].id) : null);
  // Confirmed months of the company (silent: without the salary codes the picker falls back to any month).
  const logs = useQuery({
    queryKey: ['accountsConfirmLog', 'months', chosen],
    queryFn: () => callContract(listConfirmLog, { query: { companyId: chosen ?? undefined, page: 0, size: 120, sort: 'month,desc' } }, { silent: true }),
    enabled: open && chosen !== null,
    retry: false,
  });
  const months = [...new Set((logs.data?.content ?? []).map((l) => String(l.month)))];
  const chosenMonth = month ?? months[0] ?? null;

  const submit = () => {
    if (chosen === null) {
      notify.warning(t('chooseCompanyFirst'));
      return;
    }
    if (!chosenMonth) {
      notify.warning(t('chooseMonth'));
      return;
    }
    generate.mutate({ companyId: chosen, month: chosenMonth });
  };

  return (
    <Modal
      open={open}
      title={t('payslip.generateTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={generate.isPending}
      okButtonProps={{ disabled: chosen === null || !chosenMonth, 'data-testid': 'payslip-generate-ok' } as never}
      width={500}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('company')} required>
          <CompanySelect
            value={chosen}
            onChange={(v) => {
              setCompanyId(v);
              setMonth(null);
            }}
            companies={companies}
            loading={loading}
            allowClear={false}
            style={{ width: '100%' }}
            testId="payslip-generate-company"
          />
        </Form.Item>
        <Form.Item label={t('payslip.confirmedMonth')} required help={logs.isSuccess && months.length === 0 ? t('payslip.noConfirmedMonth') : undefined}>
          {logs.isError ? (
            <DatePicker picker="month" format="YYYY-MM" value={chosenMonth ? dayjs(`${chosenMonth}-01`) : null} onChange={(d) => setMonth(d ? d.format('YYYY-MM') : null)} style={{ width: '100%' }} />
          ) : (
            <Select
              value={chosenMonth ?? undefined}
              onChange={(v) => setMonth(v)}
              options={months.map((m) => ({ value: m, label: m }))}
              loading={logs.isLoading}
              placeholder={t('chooseMonth')}
              style={{ width: '100%' }}
              data-testid="payslip-generate-month"
            />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
