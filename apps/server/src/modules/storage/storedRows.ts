import type { FastifyInstance } from 'fastify';
import { insertReturningId } from '../../core/db.ts';
import type { StoredRef } from '../../core/storage/index.ts';

/**
 * Insert the row recording an object just stored; when the insert fails the object is removed again (an object
 * without its row is invisible and never cleaned up) and the error goes on.
 */
export async function insertStoredRow(app: FastifyInstance, table: string, row: Record<string, unknown>, saved: StoredRef & { key: string }): Promise<number> {
  try {
    return await insertReturningId(app.ctx.db, app.ctx.dialect, table, row);
  } catch (err) {
    await (await app.storage.storeFor(saved)).delete([saved.key]).catch(() => undefined);
    throw err;
  }
}
