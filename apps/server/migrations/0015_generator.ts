import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Code generator (issue 12 item 6): its settings (`gen_config`, one row: author, zip folders, table prefix,
 * menu parent) and the per-table column settings (`gen_column`: label, field kind, query fuzzy '1' / exact '2',
 * shown in list / form, required, dictionary), one row per table and column.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'gen_config', (t) =>
    t
      .id()
      .string('author', 50)
      .string('pack', 200)
      .string('module_name', 200)
      .string('path', 200)
      .string('api_path', 200)
      .bool('cover', { default: false })
      .string('prefix', 50)
      .string('menu_parent', 100)
      .string('menu_icon', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'gen_column', (t) =>
    t
      .id()
      .string('table_name', 64, { notNull: true })
      .string('column_name', 64, { notNull: true })
      .string('label', 100)
      .string('kind', 20)
      .string('column_query', 1)
      .bool('column_show', { default: true })
      .bool('form_show', { default: true })
      .bool('required', { default: false })
      .string('dict_name', 100)
      .int('sort')
      .timestamps()
      .unique('table_name', 'column_name'),
  );
}
