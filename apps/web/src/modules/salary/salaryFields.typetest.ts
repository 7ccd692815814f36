/**
 * Compile-time test of the salary definition's field names (issue 21 item 1): the money and ratio fields are built
 * by helpers (resources/salary.ts), which keep each name's literal type, so a misspelt or renamed salary field
 * fails `tsc -p tsconfig.json` in the web's inline edit and in the server's queries. Each `@ts-expect-error`
 * below must stay an error; if a change made one of them compile, tsc reports the unused directive.
 */
import type { SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import type { FastifyInstance } from 'fastify';
import { salaryColumn } from '../../../../server/src/modules/payroll/salaryStore';
import { type RowUpdateOf, updateRowOf } from '../../crud/resourceClient';

type SalaryUpdate = RowUpdateOf<typeof salaryResource>;

// jiaban and bonus come from the money helper, calculated from the figures-only helper, id is written out
export const editRight: SalaryUpdate = { id: 1, jiaban: 10, koukuan: 0, bonus: 0, bonusMerged: true };
// @ts-expect-error the overtime field is `jiaban`
export const editMisspelt: SalaryUpdate = { id: 1, jiaBan: 10 };
// @ts-expect-error `gross` is a field, `grossPay` is not
export const readMisspelt: SalaryFieldName = 'grossPay';

export function inlineEdit(def: typeof salaryResource): Promise<unknown> {
  // @ts-expect-error the deduction field is `koukuan`
  return updateRowOf(def, { id: 1, kouKuan: 5 });
}

export function serverQuery(app: FastifyInstance) {
  const right = app.ctx.db.selectFrom('accounts_salary').select(salaryColumn('realSalary'));
  // @ts-expect-error the net pay field is `realSalary`
  salaryColumn('netSalary');
  return right;
}
