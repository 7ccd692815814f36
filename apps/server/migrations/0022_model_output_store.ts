import { sql } from 'kysely';
import type { Db } from '../src/core/db.ts';
import type { MigrationContext } from './index.ts';

/**
 * Model outputs remember their store (finding M2), as files and pictures do since 0013: the provider, bucket
 * and bucket type each output was written with. Preview, all.zip and the retention job then read and delete
 * from the row's own store, so switching the storage configuration no longer orphans older outputs.
 *
 * Existing rows were written to the store that was active when their task ran. The best record of that is
 * the configuration in force now: a run writes to the active store, and nothing before this migration could
 * find an output anywhere else, so outputs written before an earlier switch were already unreadable. Rows get
 * the configured S3 bucket when S3 is configured, the local store otherwise (the default for new rows too).
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('model_output').addColumn('provider', 'varchar(10)', (c) => c.notNull().defaultTo('local')).execute();
  await db.schema.alterTable('model_output').addColumn('bucket', 'varchar(100)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('model_output').addColumn('type', 'varchar(10)').execute();
  await labelExistingOutputs(db);
}

/** Label every output row with the store configured now (see above); exported for its test. */
export async function labelExistingOutputs(db: Db): Promise<void> {
  const cfg = (await sql<{ provider: string | null; bucket: string | null; type: string | null }>`select provider, bucket, type from tool_storage_config where id = 1`.execute(db)).rows[0];
  if (cfg?.provider === 's3' && cfg.bucket) {
    await sql`update model_output set provider = 's3', bucket = ${cfg.bucket}, type = ${cfg.type === '公开' ? '公开' : '私有'}`.execute(db);
  } else {
    await sql`update model_output set provider = 'local', bucket = '', type = '本地'`.execute(db);
  }
}
