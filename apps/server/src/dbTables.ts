import { columnFields, columnOf, type FieldKind, type ResourceDef } from '@app/shared/resource';
import { DESCRIBED_BY_DEFINITIONS, EXTRA_COLUMNS } from './core/dbTypes.ts';
import { SYSTEM_TABLES } from './modules/system/tables.ts';
import { SYNC_TABLES } from './sync/tables.ts';
import { PAYROLL_TABLES } from './modules/payroll/tables.ts';
import { SCHEDULER_TABLES } from './core/scheduler/tables.ts';
import { NOTICE_TABLES } from './modules/notices/tables.ts';
import { SETTLEMENT_TABLES } from './modules/settlement/tables.ts';
import { PAYOUT_TABLES } from './modules/payout/tables.ts';
import { IIT_TABLES } from './modules/iit/tables.ts';
import { SI_ADJUST_TABLES } from './modules/siAdjust/tables.ts';
import { OPERATIONS_TABLES } from './modules/operations/tables.ts';
import { STORAGE_TABLES } from './modules/storage/tables.ts';
import { EMAIL_TABLES } from './modules/integrations/email/tables.ts';
import { PAYMENT_TABLES } from './modules/integrations/payment/tables.ts';
import { GENERATOR_TABLES } from './modules/tools/generator/tables.ts';

/**
 * The hand-typed tables (no definition describes them), each described beside the module that owns it and assembled
 * here: core/dbTypes.ts builds the `DB` type from this object (a type-only import, so core imports no module at run
 * time) and test/db-types.test.ts compares it with the migrated tables. A new table: describe it in its module's
 * tables.ts and add that object here.
 */
export const HAND_TABLES = {
  ...SYSTEM_TABLES,
  ...SYNC_TABLES,
  ...PAYROLL_TABLES,
  ...SCHEDULER_TABLES,
  ...NOTICE_TABLES,
  ...SETTLEMENT_TABLES,
  ...PAYOUT_TABLES,
  ...IIT_TABLES,
  ...SI_ADJUST_TABLES,
  ...OPERATIONS_TABLES,
  ...STORAGE_TABLES,
  ...EMAIL_TABLES,
  ...PAYMENT_TABLES,
  ...GENERATOR_TABLES,
} as const;

/** Table -> columns, from the same sources as `DB` (for the test against the real tables). */
export function dbColumns(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const extras: Record<string, Record<string, FieldKind>> = EXTRA_COLUMNS;
  for (const def of DESCRIBED_BY_DEFINITIONS as readonly ResourceDef[]) {
    if (def.table in HAND_TABLES) continue;
    out.set(def.table, [...columnFields(def).map(columnOf), ...Object.keys(extras[def.table] ?? {})]);
  }
  for (const [table, cols] of Object.entries(HAND_TABLES)) out.set(table, Object.keys(cols));
  return out;
}
