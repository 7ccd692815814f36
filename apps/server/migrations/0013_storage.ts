import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Storage (issue 12 items 1-3): the one storage configuration (`/api/qiNiuConfig`, row id 1; the secret key sealed
 * with the deployment's secret box), the storage screen's files and the pictures. Each file and picture row keeps
 * the provider, bucket and bucket type it was written with, so changing the configuration does not orphan or
 * relabel what is already stored. Sizes are bytes (bigint: data-source files may exceed 2 GiB).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'tool_storage_config', (t) =>
    t
      .id()
      .string('provider', 10, { notNull: true, default: 'local' })
      .string('access_key', 200)
      .text('secret_key')
      .string('bucket', 100)
      .string('host', 255)
      .string('zone', 20)
      .string('type', 10)
      .string('endpoint', 255)
      .datetime('update_time'),
  );
  await createTable(db, dialect, 'tool_storage_file', (t) =>
    t
      .id()
      .string('name', 255, { notNull: true })
      .string('object_key', 500, { notNull: true })
      .string('provider', 10, { notNull: true })
      .string('bucket', 100, { notNull: true, default: '' })
      .string('type', 10)
      .money('size')
      .string('content_type', 120)
      .string('username', 50)
      .timestamps()
      .unique('provider', 'bucket', 'object_key'),
  );
  await createTable(db, dialect, 'tool_picture', (t) =>
    t
      .id()
      .string('filename', 255, { notNull: true, index: true })
      .string('object_key', 500, { notNull: true })
      .string('provider', 10, { notNull: true })
      .string('bucket', 100, { notNull: true, default: '' })
      .string('type', 10)
      .money('size')
      .int('width')
      .int('height')
      .string('username', 50)
      .timestamps(),
  );
}
