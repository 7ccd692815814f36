import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { identityFieldsOf, lacksIdentity } from '@app/shared/resources/hrRecords';
import { Col, Divider, Form, type FormInstance, Modal, Row as GridRow } from 'antd';
import type { Rule } from 'antd/es/form';
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DictMap } from '../app/dict';
import { notify } from '../app/feedback';
import { FieldControl, fieldRules, formFields, formValuesToBody, initialFormValues, labelOf, resourceLabel } from './fields';
import { useOptionalWhen } from './optionalWhen';
import { useResourceMutation } from './mutations';
import type { Row } from './useResourceList';
import { createResourceRow, updateResourceRow } from './resourceClient';

/**
 * The add/edit dialog of a resource: antd Form inside a Modal, Enter submits, POST (create) or PUT (update),
 * '添加成功' / '修改成功', server field errors shown on their fields. `ResourceForm` lays out the definition's
 * fields; screens with their own dialogs (users, roles, menus...) pass children and reuse `FieldItem`.
 */

export type DialogMode = 'create' | 'edit';

export interface CrudDialogProps {
  def: ResourceDef;
  open: boolean;
  mode: DialogMode;
  /** The row being edited. */
  record?: Row | null;
  onClose: () => void;
  /** After a successful save (the created row for creates). */
  onSaved?: (result: { mode: DialogMode; row?: Row }) => void;
  /** Title; default '新增<label>' / '编辑<label>'. */
  title?: ReactNode;
  width?: number;
  /** Initial form values (default: from the record or the definition's defaults). */
  initialValues?: Row;
  /** Build the request body from the form values (default: the form fields, plus id when editing). */
  toBody?: (values: Row, mode: DialogMode) => Row | Promise<Row>;
  /** Checks the form rules cannot express; return a message to refuse (shown as a warning). */
  beforeSubmit?: (values: Row, mode: DialogMode) => string | null | undefined;
  /** URL of create/update; default /api/<name>. The resource's lists and pickers refresh after a save. */
  url?: string;
  /** Skip the default success notice (the screen shows its own). */
  silentSuccess?: boolean;
  /** The form fields; receives the form instance. */
  children: ReactNode | ((form: FormInstance) => ReactNode);
  form?: FormInstance;
  onValuesChange?: (changed: Row, all: Row) => void;
  /** 'vertical' (default) or 'horizontal' labels. */
  layout?: 'vertical' | 'horizontal';
  labelWidth?: number;
  /**
   * Content below the form and outside it (a company's 结算条款 with their own dialogs): a form nested in this
   * one would hear its Enter and submit events.
   */
  after?: ReactNode;
}

/**
 * A form instance outlives its dialog, and a remounted <Form> merges the old values over its new initial
 * values; rendered as the Form's last child (after its fields registered), this resets the store to the
 * initial values on every opening.
 */
export function FormResetOnMount({ form }: { form: FormInstance }) {
  useLayoutEffect(() => {
    form.resetFields();
  }, [form]);
  return null;
}

export function CrudDialog(props: CrudDialogProps) {
  const { def, open, mode, record, onClose, onSaved } = props;
  const { t } = useTranslation('crud');
  const [ownForm] = Form.useForm();
  const form = props.form ?? ownForm;
  const label = resourceLabel(def);
  // Each opening is a new form session: the Form remounts (and resets) even when the previous closing
  // animation has not finished yet (edit clicked right after closing an add).
  const [session, setSession] = useState(0);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setSession((n) => n + 1);
  }
  // The Form remounts on every opening (destroyOnHidden), so initial values are read afresh each time.
  const initial = useMemo(
    () => props.initialValues ?? initialFormValues(def, mode === 'edit' ? record : null),
    [props.initialValues, def, mode, record],
  );

  const save = useResourceMutation<Row | undefined, Row>(def, {
    mutationFn: async (values) => {
      let body: Row;
      if (props.toBody) body = await props.toBody(values, mode);
      else {
        body = formValuesToBody(formFields(def), values);
        if (mode === 'edit' && record) body.id = record.id;
      }
      if (mode === 'create') return createResourceRow<Row>(def.name, body, props.url);
      await updateResourceRow(def.name, body, props.url);
      return undefined;
    },
    success: props.silentSuccess ? undefined : mode === 'create' ? t('added') : t('updated'),
    // the server's field errors go onto their fields (the request layer showed its message)
    form,
  });

  const submit = (values: Row) => {
    const refusal = props.beforeSubmit?.(values, mode);
    if (refusal) {
      notify.warning(refusal);
      return;
    }
    save.mutate(values, {
      onSuccess: (created) => {
        onSaved?.(mode === 'create' ? { mode, row: created } : { mode });
        onClose();
      },
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const target = e.target as HTMLElement;
    if (target.tagName !== 'INPUT') return;
    if (target.closest('.ant-select, .ant-picker, .ant-tree-select, .ant-cascader')) return;
    e.preventDefault();
    form.submit();
  };

  return (
    <Modal
      open={open}
      title={props.title ?? (mode === 'create' ? t('addTitle', { label }) : t('editTitle', { label }))}
      width={props.width ?? def.dialogWidth ?? 500}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
      mask={{ closable: false }}
      // long forms (company ~28 fields, staff ~60) scroll inside the dialog: 确定/取消 stay in view
      className="crud-dialog"
    >
      <Form
        key={session}
        form={form}
        layout={props.layout ?? 'vertical'}
        labelCol={props.layout === 'horizontal' ? { flex: `${props.labelWidth ?? 90}px` } : undefined}
        initialValues={initial}
        onFinish={submit}
        onKeyDown={onKeyDown}
        onValuesChange={props.onValuesChange}
        requiredMark
        // after 确定, bring the first refused field into view (it may be far above in a long form)
        scrollToFirstError={{ block: 'center', behavior: 'smooth' }}
        className="crud-form"
        name={`crud-${def.name}`}
      >
        {typeof props.children === 'function' ? props.children(form) : props.children}
        <FormResetOnMount form={form} />
      </Form>
      {props.after}
    </Modal>
  );
}

export interface FieldItemProps {
  def: ResourceDef;
  field: FieldDef | string;
  dicts?: DictMap;
  disabled?: boolean;
  /** Replace the control (it receives value/onChange from the Form.Item). */
  control?: ReactNode;
  /** Extra rules after the definition's. */
  rules?: Rule[];
  label?: ReactNode;
  extra?: ReactNode;
  hidden?: boolean;
}

/** One form item for a definition field: label, required mark, shared validation, the kind's control. */
export function FieldItem({ def, field, dicts, disabled, control, rules, label, extra, hidden }: FieldItemProps) {
  const { t } = useTranslation('crud');
  const f = typeof field === 'string' ? def.fields.find((x) => x.name === field) : field;
  if (!f) throw new Error(`${def.name} has no field ${String(field)}`);
  // HR records need 姓名 or 身份证号 (the server refuses a row naming nobody): each is checked with the other
  const identity = identityFieldsOf(def.name);
  const partners = identity.includes(f.name) ? identity.filter((n) => n !== f.name) : [];
  const identityRule: Rule[] = partners.length
    ? [
        ({ getFieldsValue }) => ({
          validator: async () => {
            if (lacksIdentity(def.name, getFieldsValue(identity as string[]))) throw new Error(t('nameOrIdCardRequired'));
          },
        }),
      ]
    : [];
  // a field required unless another field's row says otherwise (optionalWhen, e.g. a user's e-mail)
  const conditional = useOptionalWhen(def, f);
  const dependencies = [...partners, ...(conditional.dependencies ?? [])];
  return (
    <Form.Item
      name={f.name}
      label={label ?? labelOf(def.name, f)}
      required={conditional.required}
      dependencies={dependencies.length ? dependencies : undefined}
      rules={[...fieldRules(f, def.name), ...identityRule, ...conditional.rules, ...(rules ?? [])]}
      extra={extra}
      hidden={hidden}
    >
      {control ?? <FieldControl resource={def.name} field={f} dicts={dicts} disabled={disabled} />}
    </Form.Item>
  );
}

/** Group fields by `section`, keeping the definition's order (fields without a section first). */
export function sectionsOf(fields: readonly FieldDef[]): { title?: string; fields: FieldDef[] }[] {
  const groups: { title?: string; fields: FieldDef[] }[] = [];
  for (const f of fields) {
    let g = groups.find((x) => x.title === f.section);
    if (!g) {
      g = { title: f.section, fields: [] };
      if (f.section === undefined) groups.unshift(g);
      else groups.push(g);
    }
    g.fields.push(f);
  }
  return groups;
}

export interface FieldOverride {
  hidden?: boolean;
  disabled?: boolean;
  control?: ReactNode;
  span?: number;
  extra?: ReactNode;
}

/** The definition's form fields in two columns, with section headings. */
export function ResourceFormFields({
  def,
  dicts,
  fields = formFields(def),
  overrides = {},
  columns = 2,
}: {
  def: ResourceDef;
  dicts?: DictMap;
  fields?: FieldDef[];
  overrides?: Record<string, FieldOverride>;
  columns?: 1 | 2;
}) {
  const { t } = useTranslation('crud');
  const groups = sectionsOf(fields.filter((f) => !overrides[f.name]?.hidden));
  return (
    <>
      {groups.map((g) => (
        <div key={g.title ?? '_'} className="crud-form-section">
          {g.title && (
            <Divider titlePlacement="start" plain className="crud-form-section-title">
              {t(`sections.${g.title}`, { defaultValue: g.title })}
            </Divider>
          )}
          <GridRow gutter={16}>
            {g.fields.map((f) => {
              const o = overrides[f.name] ?? {};
              const span = o.span ?? f.span ?? (columns === 1 || f.kind === 'text' ? 24 : 12);
              return (
                // one column on a phone (U8: two columns there wrapped labels one character per line)
                <Col key={f.name} xs={24} sm={span}>
                  <FieldItem def={def} field={f} dicts={dicts} disabled={o.disabled} control={o.control} extra={o.extra} />
                </Col>
              );
            })}
          </GridRow>
        </div>
      ))}
    </>
  );
}

export type ResourceFormProps = Omit<CrudDialogProps, 'children'> & {
  dicts?: DictMap;
  overrides?: Record<string, FieldOverride>;
  /** Extra items after the definition's fields. */
  extra?: ReactNode | ((form: FormInstance) => ReactNode);
  columns?: 1 | 2;
};

/** The generic add/edit dialog: the definition's form fields in sections and two columns. */
export function ResourceForm({ dicts, overrides, extra, columns, ...dialog }: ResourceFormProps) {
  return (
    <CrudDialog {...dialog}>
      {(form) => (
        <>
          <ResourceFormFields def={dialog.def} dicts={dicts} overrides={overrides} columns={columns} />
          {typeof extra === 'function' ? extra(form) : extra}
        </>
      )}
    </CrudDialog>
  );
}
