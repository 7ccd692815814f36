import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { isEmptyValue, requiredGiven, requiredMessage } from '@app/shared/resource';
import { Form } from 'antd';
import type { Rule } from 'antd/es/form';
import { localMessage, useRefOptions } from './fields';
import type { Row } from './useResourceList';

/**
 * The form side of a field's `optionalWhen` (the e-mail of a user, not needed when the job is 普通员工): whether
 * the field is required for the row being edited (the label of the row its condition field points to decides),
 * and the rule that asks for it. Fields without the option get their ordinary `required`.
 */
export function useOptionalWhen(def: ResourceDef, field: FieldDef): { required: boolean; rules: Rule[]; dependencies?: string[] } {
  const rule = field.optionalWhen;
  const ref = rule ? def.fields.find((f) => f.name === rule.field)?.ref : undefined;
  // the condition's value as the form holds it now (a selector: no re-render for the other fields)
  const conditionId = Form.useWatch((values: Row | undefined) => (rule ? values?.[rule.field] : undefined));
  const { rows } = useRefOptions(ref?.resource ?? def.name, ref?.labelField ?? 'id', {}, !!ref);
  if (!rule || !ref) return { required: !!field.required, rules: [] };
  const labelOf = (id: unknown) => {
    const row = rows.find((r) => Number(r.id) === Number(id));
    return row ? String(row[ref.labelField] ?? '') : null;
  };
  const message = localMessage(requiredMessage(field), field, def.name);
  return {
    required: requiredGiven(field, labelOf(conditionId)),
    dependencies: [rule.field],
    rules: [
      ({ getFieldValue }) => ({
        validator: async (_rule, value) => {
          if (isEmptyValue(value) && requiredGiven(field, labelOf(getFieldValue(rule.field)))) throw new Error(message);
        },
      }),
    ],
  };
}
