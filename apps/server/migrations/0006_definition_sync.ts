import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * What the start-up sync (src/sync) shipped for each menu, permission code and dictionary row it manages:
 * `kind` + `sync_key` name the shipped item (a menu's key, a permission code, `dict:<name>`), `row_id` its row,
 * `shipped` the values the code last wrote (JSON). Comparing a row with what was shipped tells an operator's
 * edit (kept) from an untouched value (follows the code); a state whose row is gone was deleted by an operator.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'sys_sync_state', (t) =>
    t
      .string('kind', 20, { notNull: true })
      .string('sync_key', 200, { notNull: true })
      .int('row_id', { notNull: true })
      .text('shipped', { notNull: true })
      .datetime('update_time')
      .unique('kind', 'sync_key'),
  );
}
