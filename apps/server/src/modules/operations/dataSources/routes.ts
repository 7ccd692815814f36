import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  DATA_SOURCE_CODES,
  dataOriginDetails,
  type dataOriginDetailsAnswer,
  dataOriginForTask,
  type dataOriginRow,
  deleteDataOrigin,
  listDataOrigins,
  saveDataOrigin,
  testDataOriginConnection,
  uploadDataOriginFile,
} from '@app/shared/contracts/operations/dataSources';
import { hasPermission } from '@app/shared/resource';
import type { CurrentUser } from '../../../core/context.ts';
import { insertReturningId, likeContains, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { maskSecret } from '../../../core/secrets.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { registerCustomDatasourceRoutes } from './customRoutes.ts';
import { checkCommonFields, checkedSource, sqlConnection } from './dataOriginChecks.ts';
import { deleteStoredFile, receiveUpload } from './dataOriginFiles.ts';
import { openDataOrigin } from './read.ts';
import { testSqlSource } from './sqlSource.ts';
import { dataOriginFromRow, loadDataOrigin } from './store.ts';
import { type DataOriginRecord, PREVIEW_ROWS } from './types.ts';
import { countOf } from '../../../crud/pagedQuery.ts';

/**
 * The data-source endpoints of spec §7 "Data" (design §2.5): the `/dataOrigin` manager, the upload, the
 * `/customDatasource` list, plus a test-connection action and the dataset catalogue the custom-source dialog
 * needs. Lists are 1-based (`pageNumber`/`pageSize`) as the spec's data-source list is. A save of a SQL source
 * connects and runs the query for one row first; a save of a file source reads the whole file once (header,
 * encoding, row count), so a broken source is refused at save, not at 2 a.m. in a task.
 *
 * This file holds the `/dataOrigin` endpoints; the save checks are in dataOriginChecks.ts, the upload and the stored
 * file's deletion in dataOriginFiles.ts, the `/customDatasource` endpoints and the dataset catalogue in customRoutes.ts.
 */

const { create: CREATE, edit: EDIT } = DATA_SOURCE_CODES;

function requirePermission(user: CurrentUser, codes: readonly string[]): void {
  if (!hasPermission(user.permissions, codes)) throw new AppError('FORBIDDEN', {});
}

function toApi(r: DataOriginRecord, customName: string | null): z.infer<typeof dataOriginRow> {
  return {
    id: r.id,
    dataName: r.dataName,
    code: r.code,
    type: r.type,
    dbKind: r.dbKind,
    dataBaseSite: r.dbSite,
    dataBasePort: r.dbPort,
    dataBaseUser: r.dbUser,
    dataBasePassWord: maskSecret(r.dbPasswordSealed),
    hasPassword: Boolean(r.dbPasswordSealed),
    dataBaseName: r.dbName,
    query: r.query,
    url: r.fileKey,
    fileName: r.fileName,
    characterEncoding: r.characterEncoding,
    customDatabase: r.customDatasourceId,
    customDatabaseName: customName,
    tableData: r.tableData,
    rowCount: r.rowCount,
    createBy: r.createBy,
    createTime: r.createTime,
    updateTime: r.updateTime,
  };
}

/** Guards other modules add (a task that uses the source): the catalogue message when the source may not be deleted. */
type DeleteGuard = (id: number) => Promise<CodedMessage | null>;
const deleteGuards = new WeakMap<FastifyInstance, DeleteGuard[]>();

/** Lets another module refuse deleting a data source it still uses (the guard's code, with its catalogue status). */
export function addDataSourceDeleteGuard(app: FastifyInstance, guard: DeleteGuard): void {
  const root = app;
  const list = deleteGuards.get(root) ?? [];
  list.push(guard);
  deleteGuards.set(root, list);
}

/** Tasks referencing the source (model_task of the task module, when that table exists). */
async function usedByTask(app: FastifyInstance, id: number): Promise<boolean> {
  try {
    const row = await app.ctx.db.selectFrom('model_task').select('id').where('data_id', '=', id).limit(1).executeTakeFirst();
    return Boolean(row);
  } catch {
    return false; // the task tables are not there (yet)
  }
}

export function registerDataSourceRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  async function customNames(ids: (number | null)[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
    if (!wanted.length) return new Map();
    const rows = await db.selectFrom('custom_datasource').select(['id', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
  }

  // ---- /dataOrigin ------------------------------------------------------------------------------------------

  routeContract(app, listDataOrigins, async (req) => {
      const { pageNumber = 1, pageSize = 10, dataName, type } = req.query;
      let qb = db.selectFrom('data_origin');
      if (dataName) qb = qb.where(likeContains(app.ctx.dialect, 'data_name', dataName));
      if (type) qb = qb.where('type', '=', type);
      const total = await countOf(qb);
      const rows = total
        ? await qb
            .selectAll()
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((pageNumber - 1) * pageSize)
            .execute()
        : [];
      const records = rows.map(dataOriginFromRow);
      const names = await customNames(records.map((r) => r.customDatasourceId));
      return { content: records.map((r) => toApi(r, r.customDatasourceId ? (names.get(r.customDatasourceId) ?? null) : null)), totalElements: total };
  });

  routeContract(app, dataOriginDetails, async (req) => {
      const source = await loadDataOrigin(db, req.query.id!);
      const names = await customNames([source.customDatasourceId]);
      const out: z.infer<typeof dataOriginDetailsAnswer> = { ...toApi(source, source.customDatasourceId ? (names.get(source.customDatasourceId) ?? null) : null), pvData: [] };
      // the preview is read now, as the caller (a custom source shows only what they may see), never stored
      try {
        const reader = await openDataOrigin(app, source, req.user!, { limit: PREVIEW_ROWS });
        try {
          for await (const row of reader.rows) out.pvData.push(row);
          if (reader.fields.length) out.tableData = reader.fields.map((fieldName) => source.tableData.find((t) => t.fieldName === fieldName) ?? { fieldName });
        } finally {
          await reader.close();
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        out.pvError = err.message;
      }
      return out;
  });

  routeContract(app, dataOriginForTask, async (req) => {
      const s = await loadDataOrigin(db, req.query.id!);
      return { id: s.id, dataName: s.dataName, type: s.type, tableData: s.tableData };
  });

  routeContract(app, saveDataOrigin, async (req, reply) => {
      const body = req.body;
      const user = req.user!;
      const existing = body.id ? await loadDataOrigin(db, body.id) : undefined;
      // the spec's messages for an incomplete form first (the route admits CREATE or EDIT holders), then
      // the right for what this save does, before anything connects or reads a file
      checkCommonFields(body);
      requirePermission(user, existing ? EDIT : CREATE);
      const values = await checkedSource(app, req, body, existing);
      const now = nowIso();
      if (values.code) {
        const clash = await db.selectFrom('data_origin').select('id').where('code', '=', values.code).executeTakeFirst();
        if (clash && Number(clash.id) !== existing?.id) throw new AppError('DATASOURCE_CODE_TAKEN', {});
      }
      if (existing) {
        await db.updateTable('data_origin').set({ ...values, update_time: now }).where('id', '=', existing.id).execute();
        if (existing.fileKey && existing.fileKey !== values.file_key) await deleteStoredFile(app, existing.fileKey, existing.fileRef);
        const saved = await loadDataOrigin(db, existing.id);
        return toApi(saved, null);
      }
      const id = await insertReturningId(db, app.ctx.dialect, 'data_origin', { ...values, owner_id: user.id, create_by: user.username, create_time: now, update_time: now });
      reply.status(201);
      return toApi(await loadDataOrigin(db, id), null);
  });

  routeContract(app, testDataOriginConnection, async (req) => {
      const body = req.body;
      // a test by id may use the stored password, which only an editor of the source may have sent anywhere
      if (body.id) requirePermission(req.user!, EDIT);
      const existing = body.id ? await loadDataOrigin(db, body.id) : undefined;
      const conn = sqlConnection(app, body, existing);
      const { fields } = await testSqlSource(conn.fields, conn.query, app.ctx.config.dataSourceHostAllowlist ?? []);
      return { message: '连接成功', fields };
  });

  routeContract(app, deleteDataOrigin, async (req) => {
      const source = await loadDataOrigin(db, req.body.id);
      if (await usedByTask(app, source.id)) throw new AppError('DATASOURCE_IN_USE', {});
      for (const guard of deleteGuards.get(fastify) ?? []) {
        const why = await guard(source.id);
        if (why) throw new AppError(why.code, why.params ?? {});
      }
      await db.deleteFrom('data_origin').where('id', '=', source.id).execute();
      if (source.fileKey) await deleteStoredFile(app, source.fileKey, source.fileRef);
      return { message: '删除成功' };
  });

  routeContract(app, uploadDataOriginFile, async (req) => receiveUpload(app, req));

  // ---- /customDatasource ------------------------------------------------------------------------------------
  registerCustomDatasourceRoutes(app);
}
