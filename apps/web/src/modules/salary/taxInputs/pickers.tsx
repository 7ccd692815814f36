import { payrollStaffOptions, type StaffOption as PickerStaffOption } from '@app/shared/contracts/payrollInputs';
import { Form, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDicts } from '../../../app/dict';
import { callContract } from '../../../app/contractClient';

/**
 * The two choices every payroll input makes (findings U1, U7): the withholding agent (派遣单位) among the
 * `dispatch_company` dictionary's entries, and the person among the staff, searched by name or ID card on the
 * server (contracts/payrollInputs.ts payrollStaffOptions) and shown with their client company. Typing a name the records do not
 * know is no longer possible; the server refuses it anyway.
 */

const DISPATCH_DICT = ['dispatch_company'];

/** A staff record as the picker offers it. */
export type StaffOption = PickerStaffOption;

/** 派遣单位: one of the dispatch_company dictionary's labels (the label is what rows store). */
export function AgentSelect({ value, onChange, id, disabled }: { value?: string | null; onChange?: (v: string | null) => void; id?: string; disabled?: boolean }) {
  const { t } = useTranslation('taxInputs');
  const dicts = useDicts(DISPATCH_DICT);
  const options = useMemo(() => (dicts.dispatch_company ?? []).map((e) => ({ value: e.label, label: e.label })), [dicts]);
  return (
    <Select
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      disabled={disabled}
      placeholder={t('chooseAgent')}
      data-testid="agent-select"
      style={{ width: '100%' }}
    />
  );
}

const SEARCH_DELAY_MS = 250;

/** The staff matching `q` (name or ID card), optionally under one agent; [] while `q` is empty. */
function useStaffSearch(q: string, agent: string | null | undefined) {
  const [options, setOptions] = useState<StaffOption[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  useEffect(() => {
    const query = q.trim();
    const mine = ++seq.current;
    if (!query) {
      setOptions([]);
      return;
    }
    const timer = setTimeout(async () => {
      setLoading(true);
      try {
        const res = await callContract(payrollStaffOptions, { query: { q: query, agent: agent || undefined } });
        if (mine === seq.current) setOptions(res.content);
      } catch {
        if (mine === seq.current) setOptions([]);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [q, agent]);
  return { options, loading };
}

export interface StaffPickerProps {
  /** The form value: the ID card. */
  value?: string | null;
  onChange?: (idCard: string | null) => void;
  id?: string;
  /** The form field holding the withholding agent: only staff of its client companies are offered. */
  agentField?: string;
  /** Form fields filled from the chosen record. */
  fill: { name: string; companyId?: string; companyName?: string; phone?: string };
  disabled?: boolean;
}

/**
 * 员工: a searchable select by name or ID card whose options show name, ID card and client company; choosing one
 * sets the ID card (the form value) and fills the name (and company, phone) fields of the same form.
 */
export function StaffPicker({ value, onChange, id, agentField, fill, disabled }: StaffPickerProps) {
  const { t } = useTranslation('taxInputs');
  const form = Form.useFormInstance();
  const [q, setQ] = useState('');
  const agent = Form.useWatch(agentField ?? '__none', form) as string | undefined;
  const { options, loading } = useStaffSearch(q, agentField ? agent : undefined);
  // the staff record chosen in this dialog: when another agent is chosen afterwards and the person does not work
  // under it, the choice is cleared rather than kept (it would only be refused on save)
  const chosen = useRef<StaffOption | null>(null);
  const currentName = Form.useWatch(fill.name, form) as string | undefined;
  const currentCompanyId = Form.useWatch(fill.companyId ?? '__none', form) as number | undefined;
  const currentCompany = Form.useWatch(fill.companyName ?? '__none', form) as string | undefined;
  // several staff records may share an ID card (one per client company): the option key names both
  const keyOf = (o: Pick<StaffOption, 'idCard' | 'companyId'>) => `${o.idCard}|${fill.companyId ? o.companyId : ''}`;
  const currentKey = value ? `${value}|${fill.companyId ? (currentCompanyId ?? '') : ''}` : undefined;
  const byKey = new Map(options.map((o) => [keyOf(o), o]));
  const items = options.map((o) => ({ value: keyOf(o), label: <StaffLabel option={o} />, title: `${o.staffName ?? ''} ${o.idCard}` }));
  const searching = q.trim() !== '';
  if (currentKey && !byKey.has(currentKey) && !searching) {
    // the saved person (edit) is shown from the form's own fields until a search replaces the options; while a
    // search runs only its results are offered (the earlier choice may not be one of the agent's staff)
    items.unshift({
      value: currentKey,
      label: <StaffLabel option={{ staffName: currentName ?? null, idCard: value as string, companyName: currentCompany ?? null }} />,
      title: `${currentName ?? ''} ${value}`,
    });
  }
  const clear = () => {
    chosen.current = null;
    onChange?.(null);
    form.setFieldsValue({ [fill.name]: null, ...(fill.companyId ? { [fill.companyId]: null } : {}), ...(fill.companyName ? { [fill.companyName]: null } : {}) });
  };
  const clearRef = useRef(clear);
  clearRef.current = clear;
  const valueRef = useRef(value);
  valueRef.current = value;
  useEffect(() => {
    const o = chosen.current;
    // only the person picked here (not a saved record's, nor one left over from an earlier opening of the dialog)
    if (agentField && agent && o && o.idCard === valueRef.current && o.dispatchCompany !== agent) clearRef.current();
  }, [agent, agentField]);
  return (
    <Select
      id={id}
      value={currentKey}
      showSearch={{ filterOption: false, onSearch: setQ, searchValue: q }}
      onChange={(key: string | undefined) => {
        setQ('');
        if (key && key === currentKey) return; // the shown person picked again
        const o = key ? byKey.get(key) : undefined;
        if (!key || !o) {
          clear();
          return;
        }
        chosen.current = o;
        onChange?.(o.idCard);
        const patch: Record<string, unknown> = { [fill.name]: o.staffName };
        if (fill.companyId) patch[fill.companyId] = o.companyId;
        if (fill.companyName) patch[fill.companyName] = o.companyName;
        if (fill.phone && o.phone) patch[fill.phone] = o.phone;
        form.setFieldsValue(patch);
      }}
      options={items}
      optionLabelProp="title"
      allowClear
      disabled={disabled}
      loading={loading}
      placeholder={t('searchStaff')}
      notFoundContent={q.trim() ? (loading ? t('searching') : t('noStaff')) : t('typeToSearch')}
      data-testid="staff-picker"
      style={{ width: '100%' }}
    />
  );
}

function StaffLabel({ option }: { option: Pick<StaffOption, 'staffName' | 'idCard' | 'companyName'> }) {
  return (
    <Space size={6} wrap={false}>
      <span>{option.staffName ?? ''}</span>
      <Typography.Text type="secondary">{option.idCard}</Typography.Text>
      {option.companyName && <Tag>{option.companyName}</Tag>}
    </Space>
  );
}
