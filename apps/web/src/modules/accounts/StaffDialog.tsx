import { staffResource } from '@app/shared/resources/staff';
import { basesFromCompany, contractDatesError, contractWarnDate, fromIdCard, ratiosFromRateDictionary } from '@app/shared/staffDerivations';
import { Col, Divider, Form, Input, Row as GridRow } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DictMap, fetchDicts } from '../../app/dict';
import { i18n } from '../../app/i18n';
import { CrudDialog, type DialogMode, FieldItem, type Row, formFields, initialFormValues, sectionsOf } from '../../crud';
import { CompanySelect } from './companies';

/**
 * The staff add/edit dialog (800 px; sections 个人信息 / 合同信息 / 社保信息). It pre-fills with the shared
 * derivations: the company copies its bases and work-injury ratio, the census type fills the ratios from its
 * rate dictionary, a valid ID card fills sex, birth date and age, the contract end gives the reminder date.
 */

const today = () => dayjs().format('YYYY-MM-DD');

/**
 * Spec §5 contract date rules: start not after end (nor after today without end); end not before start.
 * The start-after-end rule is the shared one the server applies; the messages are in the UI language.
 */
export function contractStartProblem(start?: string | null, end?: string | null): string | null {
  if (!start) return null;
  if (end) return contractDatesError(start, end) ? i18n.t('accounts:contract.startAfterEnd') : null;
  return start > today() ? i18n.t('accounts:contract.startAfterToday') : null;
}
export function contractEndProblem(start?: string | null, end?: string | null): string | null {
  if (!end) return null;
  if (start) return end < start ? i18n.t('accounts:contract.endBeforeStart') : null;
  return end > today() ? i18n.t('accounts:contract.endAfterToday') : null;
}

const DERIVED = ['sex', 'born', 'age'] as const;
const GROUPS = sectionsOf(formFields(staffResource));

export interface StaffDialogProps {
  open: boolean;
  mode: DialogMode;
  record?: Row | null;
  dicts: DictMap;
  companies: Row[];
  /** Company of a new record (the screen's chosen company). */
  defaultCompanyId?: number | null;
  onClose: () => void;
  onSaved?: () => void;
}

export function StaffDialog({ open, mode, record, dicts, companies, defaultCompanyId, onClose, onSaved }: StaffDialogProps) {
  const { t } = useTranslation('accounts');
  const [form] = Form.useForm();
  const def = staffResource;

  const initialValues = useMemo(() => {
    const v = initialFormValues(staffResource, mode === 'edit' ? record : null);
    if (mode === 'edit' && record) for (const k of DERIVED) if (record[k] !== null && record[k] !== undefined) v[k] = record[k];
    if (mode === 'create' && defaultCompanyId) {
      v.companyId = defaultCompanyId;
      const c = companies.find((x) => Number(x.id) === defaultCompanyId);
      if (c) Object.assign(v, basesFromCompany(c, dicts.dispatch_company ?? []));
    }
    return v;
  }, [mode, record, defaultCompanyId, companies, dicts]);

  const onValuesChange = (changed: Row) => {
    if ('companyId' in changed) {
      const c = companies.find((x) => Number(x.id) === Number(changed.companyId));
      if (c) form.setFieldsValue(basesFromCompany(c, dicts.dispatch_company ?? []));
    }
    if ('censusType' in changed && changed.censusType) {
      const name = String(changed.censusType);
      void fetchDicts([name])
        .then((d) => {
          if (form.getFieldValue('censusType') === name) form.setFieldsValue(ratiosFromRateDictionary(d[name] ?? []));
        })
        .catch(() => undefined);
    }
    if ('idCard' in changed) {
      const facts = fromIdCard(changed.idCard);
      if (facts) form.setFieldsValue(facts);
    }
    if ('contractEnd' in changed) {
      const warn = contractWarnDate(changed.contractEnd);
      if (warn) form.setFieldsValue({ contractWarn: warn });
      void form.validateFields(['contractStart']).catch(() => undefined);
    }
    if ('contractStart' in changed && form.getFieldValue('contractEnd')) void form.validateFields(['contractEnd']).catch(() => undefined);
  };

  const dateRule = (which: 'start' | 'end'): Rule => ({
    validator: async () => {
      const start = form.getFieldValue('contractStart');
      const end = form.getFieldValue('contractEnd');
      const problem = which === 'start' ? contractStartProblem(start, end) : contractEndProblem(start, end);
      if (problem) throw new Error(problem);
    },
  });

  return (
    <CrudDialog
      def={def}
      open={open}
      mode={mode}
      record={record}
      form={form}
      width={800}
      initialValues={initialValues}
      onValuesChange={onValuesChange}
      onClose={onClose}
      onSaved={() => onSaved?.()}
      beforeSubmit={(v) => contractStartProblem(v.contractStart, v.contractEnd) ?? contractEndProblem(v.contractStart, v.contractEnd)}
    >
      <div data-testid="staff-dialog">
        {GROUPS.map((g) => (
          <div key={g.title ?? '_'} className="crud-form-section">
            {g.title && (
              <Divider titlePlacement="start" plain className="crud-form-section-title">
                {t(`sections.${g.title}`, { defaultValue: g.title })}
              </Divider>
            )}
            <GridRow gutter={16}>
              {g.fields.map((f) => [
                // one column on a phone (U8)
                <Col key={f.name} xs={24} sm={f.span ?? 12}>
                  <FieldItem
                    def={def}
                    field={f}
                    dicts={dicts}
                    control={f.name === 'companyId' ? <CompanySelect companies={companies} style={{ width: '100%' }} testId="staff-company" /> : undefined}
                    rules={f.name === 'contractStart' ? [dateRule('start')] : f.name === 'contractEnd' ? [dateRule('end')] : undefined}
                  />
                </Col>,
                // sex, birth date and age follow from the ID card: shown read-only right after it
                ...(f.name === 'idCard'
                  ? DERIVED.map((name) => (
                      <Col key={name} xs={8} sm={4}>
                        <Form.Item name={name} label={t(`derived.${name}`)} tooltip={t('fromIdCard')}>
                          <Input disabled data-testid={`staff-derived-${name}`} />
                        </Form.Item>
                      </Col>
                    ))
                  : []),
              ])}
            </GridRow>
          </div>
        ))}
      </div>
    </CrudDialog>
  );
}
