import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Data sources (issue 11 item 4; modules/operations/dataSources):
 * - `custom_datasource`: a projection of one of our own datasets (`dataset`, the chosen fields in `table_data`);
 * - `data_origin`: a source a model task reads. `sql` keeps the connection fields with the password sealed
 *   (`db_password_enc`, core/secrets.ts) and the query; `csv`/`xls` the storage key of the uploaded file and
 *   which store holds it (`file_ref`: provider, bucket);
 *   `custom` the custom source. `table_data` is the column list, `row_count` counted at save;
 * - `data_source_upload`: who uploaded which stored file, so a save can only use its own uploads.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'custom_datasource', (t) =>
    t
      .id()
      .string('name', 50, { notNull: true, unique: true })
      .string('dataset', 50, { notNull: true })
      .string('character_encoding', 20, { notNull: true })
      .text('table_data')
      .string('create_by', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'data_origin', (t) =>
    t
      .id()
      .string('data_name', 50, { notNull: true, index: true })
      .string('code', 50, { unique: true })
      .string('type', 10, { notNull: true })
      .string('db_kind', 20)
      .string('db_site', 255)
      .int('db_port')
      .string('db_user', 100)
      .text('db_password_enc')
      .string('db_name', 100)
      .text('query')
      .string('file_key', 255)
      .text('file_ref')
      .string('file_name', 255)
      .string('character_encoding', 20, { notNull: true })
      .int('custom_datasource_id', { index: true })
      .text('table_data')
      .int('row_count')
      .int('owner_id')
      .string('create_by', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'data_source_upload', (t) =>
    t
      .id()
      .string('storage_key', 255, { notNull: true, unique: true })
      .text('storage_ref')
      .string('file_name', 255, { notNull: true })
      .string('extension', 10, { notNull: true })
      .int('size', { notNull: true })
      .int('owner_id', { notNull: true, index: true })
      .datetime('create_time'),
  );
}
