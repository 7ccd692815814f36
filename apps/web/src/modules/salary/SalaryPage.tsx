import { permissionCodes } from '@app/shared/resource';
import { SALARY_INSURANCE_FIELDS, salaryResource } from '@app/shared/resources/salary';
import { CalculatorOutlined, CheckCircleOutlined, CloseOutlined, DeleteOutlined, EditOutlined, LockOutlined, ReloadOutlined, SaveOutlined, SearchOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Descriptions, Empty, Input, InputNumber, Popconfirm, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { feedback, notify } from '../../app/feedback';
import { api } from '../../app/request';
import { ResourceTable, type Row, deleteRows, dictNames, formatDateTime, labelOf, renderValue, useResourceList } from '../../crud';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import './salary.css';

/**
 * 月度工资 (salary/accountsSalary/index): one company's month. 生成 snapshots the staff, 计算 fills the figures,
 * 确认 locks the month (spec §4). A confirmation log for the company and month means the month is locked:
 * a banner says who confirmed it and when, and edit, calculate, confirm and delete are disabled. Overtime
 * (jiaban) and deduction (koukuan) are edited inline and saved as numbers.
 */

const COLUMNS = ['companyName', 'month', 'staffName', 'idCard', 'phone', 'salary', 'fiveOne', 'deduct', 'jiaban', 'koukuan', 'tax', 'realSalary'];
const fieldsByName = new Map(salaryResource.fields.map((f) => [f.name, f]));
const LIST_FIELDS = COLUMNS.map((n) => fieldsByName.get(n)).filter((f): f is NonNullable<typeof f> => !!f);
const MAX = 1_000_000;

/** The expanded row: the snapshot, the bases and ratios, the personal items and the tax figures. */
const DETAIL_GROUPS: { key: string; fields: string[] }[] = [
  { key: 'details.staff', fields: ['dispatchCompany', 'censusType', 'sex', 'taxesType', 'insureType', 'contractStart', 'contractEnd'] },
  { key: 'details.bases', fields: [...SALARY_INSURANCE_FIELDS] },
  { key: 'details.personal', fields: ['yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'jiaban', 'koukuan', 'gross'] },
  {
    key: 'details.tax',
    fields: ['deduct', 'monthIndex', 'cumulativeIncome', 'cumulativeTaxable', 'cumulativeTax', 'taxableThisMonth', 'tax', 'realSalary', 'calculateTime'],
  },
];
const DICT_NAMES = dictNames(salaryResource.fields);
/** Compact column widths so the editable amounts stay in view on a laptop screen. */
const WIDTHS: Record<string, number> = { companyName: 140, month: 90, staffName: 90, idCard: 175, phone: 120, jiaban: 120, koukuan: 120 };
for (const n of ['salary', 'fiveOne', 'deduct', 'tax', 'realSalary']) WIDTHS[n] = 105;

export interface ConfirmLog {
  companyId?: number;
  companyName?: string;
  month?: string;
  rowCount?: number;
  username?: string;
  cname?: string;
  createTime?: string;
}

/** The confirmation log of a company's month, or null (not confirmed). */
export function useConfirmLog(companyId: number | null, month: string | null) {
  const q = useQuery({
    queryKey: ['accountsConfirmLog', companyId, month],
    queryFn: async () => {
      const res = await api.get<{ content?: ConfirmLog[] }>('/api/accountsConfirmLog', { companyId, month, page: 0, size: 1 });
      return res?.content?.[0] ?? null;
    },
    enabled: companyId !== null && !!month,
    staleTime: 0,
  });
  return { log: q.data ?? null, loading: q.isLoading, reload: () => q.refetch() };
}

export default function SalaryPage() {
  const { t } = useTranslation('salary');
  const def = salaryResource;
  const { hasPermission } = useAuth();
  const queryClient = useQueryClient();
  const dicts = useDicts(DICT_NAMES);
  const { companies, loading: companiesLoading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [month, setMonth] = useState<string>(() => dayjs().format('YYYY-MM'));
  const [text, setText] = useState<{ staffName?: string; idCard?: string; phone?: string }>({});
  const baseParams = useMemo(() => ({ companyId: companyId ?? undefined, month }), [companyId, month]);
  const list = useResourceList(def, { baseParams, enabled: companyId !== null && !!month });
  const { log, reload: reloadLog } = useConfirmLog(companyId, month);
  const locked = !!log;
  const company = companies.find((c) => Number(c.id) === companyId);

  const [editing, setEditing] = useState<{ id: unknown; jiaban: number | null; koukuan: number | null } | null>(null);
  const [saving, setSaving] = useState(false);
  const editingId = editing?.id;
  useEffect(() => {
    if (editingId === undefined) return;
    // the amounts may sit beyond the table's horizontal scroll: bring the first input into view
    const input = document.querySelector<HTMLElement>('[data-testid="salary-input-jiaban"]');
    input?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
    input?.focus?.();
  }, [editingId]);
  const [running, setRunning] = useState<'generate' | 'calculate' | 'confirm' | null>(null);
  const [deleting, setDeleting] = useState<unknown>(null);

  const can = {
    generate: hasPermission(permissionCodes(def, 'create')),
    edit: hasPermission(permissionCodes(def, 'edit')),
    delete: hasPermission(permissionCodes(def, 'delete')),
  };
  const hasRows = list.total > 0;

  const refresh = async () => {
    await Promise.all([list.reload(), reloadLog(), queryClient.invalidateQueries({ queryKey: ['crud', '/api/acPayslip'] })]);
  };

  const runStep = async (step: 'generate' | 'calculate' | 'confirm') => {
    if (companyId === null) {
      notify.warning(t('chooseCompanyFirst'));
      return;
    }
    const url = { generate: '/api/accountsSalary/generator', calculate: '/api/accountsSalary/calculate', confirm: '/api/accountsSalary/confirm' }[step];
    setRunning(step);
    try {
      const res = await api.post<{ message?: string }>(url, { companyId, month, companyName: company?.companyName });
      notify.success(res?.message || t(step));
      setEditing(null);
    } catch {
      /* the request layer showed the server's message */
    } finally {
      setRunning(null);
      await refresh();
    }
  };

  const onConfirm = () => {
    feedback.modal.confirm({
      title: t('confirmTitle'),
      content: t('confirmSalary'),
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: () => runStep('confirm'),
    });
  };

  const save = async () => {
    if (!editing) return;
    setSaving(true);
    try {
      await api.put(`/api/${def.name}`, { id: editing.id, jiaban: Number(editing.jiaban ?? 0), koukuan: Number(editing.koukuan ?? 0) });
      notify.success(t('saved'));
      setEditing(null);
      await list.reload();
    } catch {
      /* shown by the request layer */
    } finally {
      setSaving(false);
    }
  };

  const remove = async (row: Row) => {
    setDeleting(row.id);
    try {
      await deleteRows(def, [row.id]);
      notify.success(t('deleted'));
      list.afterDelete(1);
    } catch {
      /* shown by the request layer */
    } finally {
      setDeleting(null);
    }
  };

  const rowLocked = (row: Row) => locked || Number(row.tag) === 1;
  const isEditing = (row: Row) => editing !== null && editing.id === row.id;

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
        width: 170,
        fixed: 'right',
        align: 'center',
        render: (_: unknown, row: Row) => {
          const disabled = rowLocked(row);
          if (isEditing(row)) {
            return (
              <Space size={4} onClick={(e) => e.stopPropagation()}>
                <Button size="small" type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="salary-save">
                  {t('confirm')}
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
                    onClick={() => setEditing({ id: row.id, jiaban: row.jiaban == null ? 0 : Number(row.jiaban), koukuan: row.koukuan == null ? 0 : Number(row.koukuan) })}
                    aria-label={t('edit')}
                    data-testid="salary-edit"
                  />
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
        <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => void runStep('generate')} loading={running === 'generate'} disabled={locked || companyId === null} data-testid="salary-generate">
          {t('generate')}
        </Button>
      )}
      {can.edit && (
        <Button icon={<CalculatorOutlined />} onClick={() => void runStep('calculate')} loading={running === 'calculate'} disabled={locked || !hasRows} data-testid="salary-calculate">
          {t('calculate')}
        </Button>
      )}
      {can.edit && (
        <Button type="primary" ghost icon={<CheckCircleOutlined />} onClick={onConfirm} loading={running === 'confirm'} disabled={locked || !hasRows} data-testid="salary-confirm">
          {t('confirm')}
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

  const search = () => list.search({ ...text });

  const expanded = (row: Row) => (
    <div className="salary-details" data-testid="salary-details">
      {DETAIL_GROUPS.map((g) => (
        <Descriptions key={g.key} size="small" bordered column={{ xs: 1, sm: 2, lg: 4 }} title={t(g.key)} className="crud-detail">
          {g.fields
            .map((n) => fieldsByName.get(n))
            .filter((f): f is NonNullable<typeof f> => !!f)
            .map((f) => (
              <Descriptions.Item key={f.name} label={labelOf(def.name, f)}>
                {renderValue(f, row[f.name], row, dicts)}
              </Descriptions.Item>
            ))}
        </Descriptions>
      ))}
    </div>
  );

  return (
    <Card className="crud-page salary-page" variant="borderless" data-testid="salary-page">
      <Space wrap className="crud-search">
        <CompanySelect value={companyId} onChange={setCompanyId} companies={companies} loading={companiesLoading} testId="salary-company" />
        <DatePicker
          picker="month"
          format="YYYY-MM"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => {
            if (d) setMonth(d.format('YYYY-MM'));
            setEditing(null);
          }}
          aria-label={t('month')}
          data-testid="salary-month"
          style={{ width: 130 }}
        />
        <Input placeholder={t('staffName')} aria-label={t('staffName')} value={text.staffName ?? ''} onChange={(e) => setText((s) => ({ ...s, staffName: e.target.value }))} onPressEnter={search} allowClear style={{ width: 140 }} />
        <Input placeholder={t('idCard')} aria-label={t('idCard')} value={text.idCard ?? ''} onChange={(e) => setText((s) => ({ ...s, idCard: e.target.value }))} onPressEnter={search} allowClear style={{ width: 180 }} />
        <Input placeholder={t('phone')} aria-label={t('phone')} value={text.phone ?? ''} onChange={(e) => setText((s) => ({ ...s, phone: e.target.value }))} onPressEnter={search} allowClear style={{ width: 140 }} />
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="salary-search">
          {t('search')}
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setText({});
            list.search({});
          }}
        >
          {t('reset')}
        </Button>
      </Space>
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
      {companyId !== null ? (
        <ResourceTable
          def={def}
          list={list}
          dicts={dicts}
          fields={LIST_FIELDS}
          tableKey="accountsSalary-month"
          columns={columns}
          expandable={expanded}
          toolbar={toolbar}
          rowClassName={(row) => (rowLocked(row) ? 'salary-row-locked' : '')}
        />
      ) : (
        <div className="crud-disabled-hint" data-testid="choose-company-hint">
          <Empty description={t('chooseCompanyFirst')} />
        </div>
      )}
    </Card>
  );
}
