import { permissionCodes } from '@app/shared/resource';
import { type SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import { CalculatorOutlined, CheckCircleOutlined, CloseOutlined, DeleteOutlined, EditOutlined, GiftOutlined, LockOutlined, SaveOutlined, ThunderboltOutlined, UnlockOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Empty, InputNumber, Popconfirm, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { ResourceTable, type Row, SearchBar, SearchItem, deleteRows, dictNames, formatDateTime, useResourceList, useResourceMutation } from '../../crud';
import '../../crud/crud.css';
import { updateRowOf } from '../../crud/resourceClient';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import { BonusDialog } from './BonusDialog';
import { MonthSteps, useConfirmLog, useMonthSummary } from './MonthProgress';
import { SalaryRowDetails } from './SalaryRowDetails';
import { UnconfirmDialog } from './UnconfirmDialog';
import { SALARY_STEP_CODES, useSalarySteps } from './useSalarySteps';
import { checkPayItems, type PayItemErrors, type PayItemValues, PayItemsEditor, payItemErrorsOf, payItemsBody, payItemsOf } from './PayItemsEditor';
import { ConfirmSalaryDialog, itemsOfRow, OpenItemsAlert, OpenItemTag, useCalculationReport } from './CalculationReport';
import './salary.css';

/**
 * 月度工资 (salary/accountsSalary/index): one company's month. 生成 snapshots the staff, 计算 fills the figures,
 * 确认 locks the month (spec §4). A confirmation log for the company and month means the month is locked:
 * a banner says who confirmed it and when, and edit, calculate, confirm and delete are disabled. Overtime
 * (jiaban) and deduction (koukuan) are edited inline and saved as numbers.
 */

/**
 * U5: the month's money first and 应发/个税/实发 in view at 1440 px; 单位名称 and 月份 are the page's own filter
 * (the same in every row), so they are not columns; the phone number comes last.
 */
// issue 20 item 5: 上月应扣未扣, 应扣未扣 and 单位垫付 beside 实发 (实发 is never below zero; what it could not cover shows here)
const COLUMNS: SalaryFieldName[] = ['staffName', 'idCard', 'salary', 'jiaban', 'koukuan', 'fiveOne', 'gross', 'tax', 'realSalary', 'carriedIn', 'unpaid', 'advanced', 'phone'];
/** Summed in the 合计 row under the page. 专项附加扣除 is an allowance, not paid money: it stays in the details. */
const TOTALS: SalaryFieldName[] = ['salary', 'jiaban', 'koukuan', 'fiveOne', 'gross', 'tax', 'realSalary', 'carriedIn', 'unpaid', 'advanced'];
const fieldsByName = new Map(salaryResource.fields.map((f) => [f.name, f]));
const LIST_FIELDS = COLUMNS.map((n) => fieldsByName.get(n)).filter((f): f is NonNullable<typeof f> => !!f);
const MAX = 1_000_000;

const DICT_NAMES = dictNames(salaryResource.fields);
/** Compact column widths so the editable amounts stay in view on a laptop screen. */
const WIDTHS: Record<string, number> = { staffName: 90, idCard: 170, phone: 120, jiaban: 100, koukuan: 100 };
for (const n of ['salary', 'fiveOne', 'gross', 'tax', 'realSalary']) WIDTHS[n] = 100;
for (const n of ['carriedIn', 'unpaid', 'advanced']) WIDTHS[n] = 90;
/** 单位 and 月份 are the page's own state (they pick the month's rows), shown first by `lead`. */
const SEARCH_EXCLUDED = ['companyId', 'month'];

export default function SalaryPage() {
  const { t } = useTranslation('salary');
  const def = salaryResource;
  const { hasPermission } = useAuth();
  const dicts = useDicts(DICT_NAMES);
  const { companies, loading: companiesLoading, loaded } = useCompanies();
  // 首页 › 本月工资 links here with ?companyId=&month= (the company and month it shows)
  const [linked] = useSearchParams();
  const linkedCompany = /^\d{1,10}$/.test(linked.get('companyId') ?? '') ? Number(linked.get('companyId')) : null;
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded, linkedCompany);
  const [month, setMonth] = useState<string>(() => (/^\d{4}-(0[1-9]|1[0-2])$/.test(linked.get('month') ?? '') ? (linked.get('month') as string) : dayjs().format('YYYY-MM')));
  const baseParams = useMemo(() => ({ companyId: companyId ?? undefined, month }), [companyId, month]);
  const list = useResourceList(def, { baseParams, enabled: companyId !== null && !!month });
  const { log } = useConfirmLog(companyId, month);
  const locked = !!log;
  const company = companies.find((c) => Number(c.id) === companyId);

  // the row being edited inline: 加班费/扣款 in the row, 补发/补扣 (with their months)/经济补偿金 in the panel above the table
  const [editing, setEditing] = useState<({ id: number; staffName: string; jiaban: number | null; koukuan: number | null } & PayItemValues) | null>(null);
  const [payItemErrors, setPayItemErrors] = useState<PayItemErrors>({});
  const [bonusRow, setBonusRow] = useState<Row | null>(null);
  const editingId = editing?.id;
  useEffect(() => {
    if (editingId === undefined) return;
    // the amounts may sit beyond the table's horizontal scroll: bring the first input into view
    const input = document.querySelector<HTMLElement>('[data-testid="salary-input-jiaban"]');
    input?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
    input?.focus?.();
  }, [editingId]);

  const can = {
    generate: hasPermission(SALARY_STEP_CODES.generate),
    edit: hasPermission(SALARY_STEP_CODES.calculate),
    delete: hasPermission(permissionCodes(def, 'delete')),
    unconfirm: hasPermission(SALARY_STEP_CODES.unconfirm),
  };
  const [unconfirmOpen, setUnconfirmOpen] = useState(false);
  const hasRows = list.total > 0;

  const summary = useMonthSummary(companyId, month);
  const openItems = useCalculationReport(companyId, month);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const { runStep, generate: onGenerate, running, unconfirm } = useSalarySteps(companyId, month, company?.companyName as string | undefined, (which) => {
    setEditing(null);
    if (which === 'confirm' || which === 'confirmAcknowledged') setConfirmOpen(false);
  });

  const onConfirm = () => setConfirmOpen(true);
  // U15: 确认 waits until every row is calculated (the steps bar's count); the server refuses it anyway
  const allCalculated = !!summary.data && summary.data.rows > 0 && summary.data.calculated === summary.data.rows;

  const amounts = useResourceMutation<unknown, NonNullable<typeof editing>>(def, {
    mutationFn: (e) => updateRowOf(def, { id: e.id, jiaban: Number(e.jiaban ?? 0), koukuan: Number(e.koukuan ?? 0), ...payItemsBody(e) }),
    success: t('saved'),
    onSuccess: () => setEditing(null),
    // a refusal about 补发/补扣/经济补偿金 (a month missing or not before the salary month) shows on its field too
    onError: (err) => setPayItemErrors(payItemErrorsOf(err)),
  });
  const saving = amounts.isPending;
  const save = () => {
    if (!editing || amounts.isPending) return;
    const errors = checkPayItems(editing, month, t);
    setPayItemErrors(errors);
    if (Object.keys(errors).length) return;
    amounts.mutate(editing);
  };

  const removal = useResourceMutation<void, Row>(def, {
    mutationFn: (row) => deleteRows(def, [row.id]),
    success: t('deleted'),
    onSuccess: () => list.afterDelete(1),
  });
  const deleting = removal.isPending ? removal.variables?.id : null;
  // a promise: the popover's 确定 spins until the server answered
  const remove = (row: Row) => removal.mutateAsync(row).catch(() => undefined);

  const rowLocked = (row: Row) => locked || Number(row.tag) === 1;
  const isEditing = (row: Row) => editing !== null && editing.id === Number(row.id);

  const numberInput = (name: 'jiaban' | 'koukuan') => (
    <InputNumber
      size="small"
      min={0}
      max={MAX}
      precision={2}
      value={editing?.[name] ?? null}
      onChange={(v) => setEditing((e) => (e ? { ...e, [name]: v === null ? null : Number(v) } : e))}
      onPressEnter={() => void save()}
      style={{ width: '100%' }}
      aria-label={name}
      data-testid={`salary-input-${name}`}
    />
  );

  const render = {
    jiaban: (_v: unknown, row: Row) => (isEditing(row) ? numberInput('jiaban') : undefined),
    koukuan: (_v: unknown, row: Row) => (isEditing(row) ? numberInput('koukuan') : undefined),
  };

  const showActions = can.edit || can.delete;
  const columns = (cols: ColumnsType<Row>): ColumnsType<Row> => {
    const out = cols.map((c) => {
      const width = WIDTHS[String(c.key)] ?? c.width;
      // the worker's name stays in view when the wide table scrolls right (W2)
      if (c.key === 'staffName') {
        const base = c.render;
        // a worker an open item concerns is tagged beside the name (U2)
        const renderName = (v: unknown, row: Row, i: number) => {
          const own = itemsOfRow(openItems, row);
          const name = (base ? base(v, row, i) : v) as ReactNode;
          return own.length ? (
            <Space size={4} wrap>
              {name}
              <OpenItemTag items={own} />
            </Space>
          ) : (
            name
          );
        };
        return { ...c, width: openItems.length ? 150 : width, fixed: 'left' as const, render: renderName };
      }
      if (c.key !== 'jiaban' && c.key !== 'koukuan') return { ...c, width };
      const base = c.render;
      return { ...c, width, render: (v: unknown, row: Row, i: number) => render[c.key as 'jiaban' | 'koukuan'](v, row) ?? base?.(v, row, i) };
    }) as ColumnsType<Row>;
    if (!showActions) return out;
    return [
      ...out,
      {
        key: '__actions',
        title: t('actions'),
        // three icon buttons; the row being edited shows two labelled buttons instead
        width: editing ? 170 : 110,
        fixed: 'right',
        align: 'center',
        render: (_: unknown, row: Row) => {
          const disabled = rowLocked(row);
          if (isEditing(row)) {
            return (
              <Space size={4} onClick={(e) => e.stopPropagation()}>
                <Button size="small" type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="salary-save">
                  {/* 保存, not 确认: 确认 is the month's lock, a button away on the same screen */}
                  {t('save')}
                </Button>
                <Button size="small" icon={<CloseOutlined />} onClick={() => setEditing(null)} data-testid="salary-cancel">
                  {t('cancel')}
                </Button>
              </Space>
            );
          }
          return (
            <Space size={4} onClick={(e) => e.stopPropagation()}>
              {can.edit && (
                <Tooltip title={t('edit')}>
                  <Button
                    size="small"
                    type="primary"
                    icon={<EditOutlined />}
                    disabled={disabled || editing !== null}
                    onClick={() => {
                      setPayItemErrors({});
                      setEditing({ id: Number(row.id), staffName: String(row.staffName ?? ''), jiaban: row.jiaban == null ? 0 : Number(row.jiaban), koukuan: row.koukuan == null ? 0 : Number(row.koukuan), ...payItemsOf(row) });
                    }}
                    aria-label={t('edit')}
                    data-testid="salary-edit"
                  />
                </Tooltip>
              )}
              {can.edit && (
                <Tooltip title={t('bonus.action')}>
                  <Button size="small" icon={<GiftOutlined />} disabled={disabled || editing !== null} onClick={() => setBonusRow(row)} aria-label={t('bonus.action')} data-testid="salary-bonus" />
                </Tooltip>
              )}
              {can.delete && (
                <Popconfirm title={t('confirmDelete')} okText={t('ok')} cancelText={t('cancel')} disabled={disabled} onConfirm={() => remove(row)}>
                  <Tooltip title={t('delete')}>
                    <Button size="small" type="primary" danger icon={<DeleteOutlined />} disabled={disabled} loading={deleting === row.id} aria-label={t('delete')} data-testid="salary-delete" />
                  </Tooltip>
                </Popconfirm>
              )}
            </Space>
          );
        },
      },
    ];
  };

  const toolbar = (
    <>
      {can.generate && (
        <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => void onGenerate()} loading={running === 'generate'} disabled={locked || companyId === null} data-testid="salary-generate">
          {t('generate')}
        </Button>
      )}
      {can.edit && (
        <Button icon={<CalculatorOutlined />} onClick={() => void runStep('calculate')} loading={running === 'calculate'} disabled={locked || !hasRows} data-testid="salary-calculate">
          {t('calculate')}
        </Button>
      )}
      {can.edit && (
        <Tooltip title={!locked && hasRows && !allCalculated ? t('openItems.calculateFirst') : undefined}>
          <Button
            type="primary"
            ghost
            icon={<CheckCircleOutlined />}
            onClick={onConfirm}
            loading={running === 'confirm' || running === 'confirmAcknowledged'}
            disabled={locked || !hasRows || !allCalculated}
            data-testid="salary-confirm"
          >
            {t('confirm')}
          </Button>
        </Tooltip>
      )}
      {can.unconfirm && locked && (
        <Button danger icon={<UnlockOutlined />} onClick={() => setUnconfirmOpen(true)} data-testid="salary-unconfirm">
          {t('unconfirm.button')}
        </Button>
      )}
      {companyId !== null &&
        (locked ? (
          <Tag color="green" icon={<LockOutlined />} data-testid="salary-lock-tag">
            {t('locked')}
          </Tag>
        ) : (
          <Tag data-testid="salary-open-tag">{t('unlocked')}</Tag>
        ))}
    </>
  );

  const expanded = (row: Row) => <SalaryRowDetails row={row} items={itemsOfRow(openItems, row)} dicts={dicts} />;

  return (
    <Card className="crud-page salary-page" variant="borderless" data-testid="salary-page">
      <SearchBar
        def={def}
        dicts={dicts}
        filters={list.filters}
        onSearch={(f) => list.search(f)}
        exclude={SEARCH_EXCLUDED}
        lead={
          <>
            <SearchItem label={t('company')} htmlFor="salary-company" required testId="salary-company-filter">
              <CompanySelect id="salary-company" value={companyId} onChange={setCompanyId} companies={companies} loading={companiesLoading} testId="salary-company" />
            </SearchItem>
            <SearchItem label={t('month')} htmlFor="salary-month" required testId="salary-month-filter">
              <DatePicker
                id="salary-month"
                picker="month"
                format="YYYY-MM"
                allowClear={false}
                value={dayjs(`${month}-01`)}
                onChange={(d) => {
                  if (d) setMonth(d.format('YYYY-MM'));
                  setEditing(null);
                }}
                data-testid="salary-month"
                style={{ width: 130 }}
              />
            </SearchItem>
          </>
        }
      />
      {companyId !== null && <MonthSteps summary={summary.data} />}
      {locked && log && (
        <Alert
          className="salary-lock-banner"
          type="success"
          showIcon
          icon={<LockOutlined />}
          data-testid="salary-lock-banner"
          title={t('lockedTitle', { month })}
          description={t('lockedDetail', { who: log.cname || log.username || '-', time: formatDateTime(log.createTime), count: log.rowCount ?? list.total })}
        />
      )}
      {!locked && <OpenItemsAlert items={openItems} />}
      <ConfirmSalaryDialog
        open={confirmOpen}
        month={month}
        items={openItems}
        busy={running === 'confirm' || running === 'confirmAcknowledged'}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={(acknowledged) => void runStep(acknowledged ? 'confirmAcknowledged' : 'confirm')}
      />
      <UnconfirmDialog
        open={unconfirmOpen}
        month={month}
        onClose={() => setUnconfirmOpen(false)}
        // rejects on a refusal (shown by the request layer): the dialog stays open with the reason
        onSubmit={async (reason) => {
          await unconfirm(reason);
          setUnconfirmOpen(false);
        }}
      />
      {editing && (
        <PayItemsEditor
          staffName={editing.staffName}
          salaryMonth={month}
          value={editing}
          errors={payItemErrors}
          onChange={(v, changed) => {
            setEditing((e) => (e ? { ...e, ...v } : e));
            setPayItemErrors(({ [changed]: _cleared, ...rest }) => rest);
          }}
        />
      )}
      {companyId !== null ? (
        <ResourceTable
          def={def}
          list={list}
          dicts={dicts}
          fields={LIST_FIELDS}
          tableKey="accountsSalary-month"
          columns={columns}
          pageTotals={TOTALS}
          expandable={expanded}
          toolbar={toolbar}
          rowClassName={(row) => (rowLocked(row) ? 'salary-row-locked' : '')}
        />
      ) : (
        <div className="crud-disabled-hint" data-testid="choose-company-hint">
          <Empty description={t('chooseCompanyFirst')} />
        </div>
      )}
      <BonusDialog row={bonusRow} onClose={() => setBonusRow(null)} />
    </Card>
  );
}
