import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { exportModelData, listModelData, listModelDataGroups, MODELDATA_CODES, previewModelData } from '@app/shared/contracts/operations/tasks';
import type { DB } from '../../../core/dbTypes.ts';
import { AppError } from '../../../core/errors.ts';
import { openWorkbook } from '../../../core/excel/readWorkbook.ts';
import { computeDeptScope, type DeptScope } from '../../../core/rbac.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import type { ObjectStore, StoredRef } from '../../../core/storage/index.ts';
import { checkOutputsExist, sendOutputsZip, type ZipOutput } from './modelDataZip.ts';

export { MODELDATA_CODES };
const MiB = 1024 * 1024;
/** Rows a preview shows. */
const PREVIEW_ROWS = 50;
/** A preview reads the workbook into memory: larger files are listed but not previewed. */
const PREVIEW_MAX_BYTES = 20 * MiB;

/**
 * Only rows of tasks whose owner's department the caller sees (data scope; null scope = all): model outputs
 * here, model tasks on the dashboard (dashboard.ts). Both tables carry the owner's department.
 */
export function scopedByOwnerDept<TB extends 'model_output' | 'model_task', O>(qb: SelectQueryBuilder<DB, TB, O>, scope: DeptScope): SelectQueryBuilder<DB, TB, O> {
  if (scope === null) return qb;
  const q = qb as unknown as SelectQueryBuilder<DB, 'model_task', O>;
  return (scope.length ? q.where('owner_dept_id', 'in', scope) : q.where('id', '<', 0)) as unknown as SelectQueryBuilder<DB, TB, O>;
}

function zipMax(app: FastifyInstance): number {
  const c = app.ctx.config as { modelDataZipMaxBytes?: number };
  return c.modelDataZipMaxBytes ?? 500 * MiB;
}

/** The store an output was written to (migration 0022), whatever the configuration says today. */
export const outputRef = (r: { provider?: string | null; bucket?: string | null; type?: string | null }): StoredRef => ({
  provider: r.provider === 's3' ? 's3' : 'local',
  bucket: String(r.bucket ?? ''),
  type: String(r.type ?? ''),
});

/**
 * Delete outputs older than `days` from the store each was written to (files first, then rows). Outputs whose
 * store cannot be reached (an S3 bucket no longer configured) keep their rows, so nothing is orphaned, and are
 * counted as kept; the other stores are cleaned all the same.
 */
export async function removeOldModelData(app: FastifyInstance, days: number, now = Date.now()): Promise<{ removed: number; kept: number }> {
  const cutoff = new Date(now - days * 86_400_000).toISOString();
  const db = app.ctx.db;
  let removed = 0;
  let kept = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('model_output')
      .select(['id', 'storage_key', 'provider', 'bucket', 'type'])
      .where('create_time', '<', cutoff)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!rows.length) return { removed, kept };
    afterId = Number(rows[rows.length - 1].id);
    const byStore = new Map<string, { ref: StoredRef; rows: typeof rows }>();
    for (const r of rows) {
      const ref = outputRef(r);
      const k = `${ref.provider}\n${ref.bucket}`;
      if (!byStore.has(k)) byStore.set(k, { ref, rows: [] });
      byStore.get(k)!.rows.push(r);
    }
    for (const { ref, rows: group } of byStore.values()) {
      try {
        const store = await app.storage.storeFor(ref);
        await store.delete(group.map((r) => String(r.storage_key)));
      } catch (err) {
        app.log.warn({ err, provider: ref.provider, bucket: ref.bucket, files: group.length }, 'model data retention: store unavailable, rows kept');
        kept += group.length;
        continue;
      }
      await db.deleteFrom('model_output').where('id', 'in', group.map((r) => Number(r.id))).execute();
      removed += group.length;
    }
  }
}

/** /dataManagement/*: the model data screen (list by kind and group, preview, all.zip) and its retention job. */
export function registerModelDataRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  app.scheduler.registerHandler({
    name: 'modelDataRetention.run',
    title: '模型数据保留期清理',
    run: async (ctx) => {
      const days = Number(ctx.params.days ?? (app.ctx.config as { modelDataKeepDays?: number }).modelDataKeepDays ?? 180);
      if (!Number.isInteger(days) || days < 1) throw new AppError('TASK_PARAM_TYPE', { name: 'days', type: { code: 'PARAM_TYPE_POSITIVE_INTEGER' } });
      const { removed, kept } = await removeOldModelData(app, days);
      const keptNote = kept ? `；${kept} 个文件所在的存储无法访问，已保留` : '';
      return { summary: `删除 ${days} 天前的模型数据文件 ${removed} 个${keptNote}`, outputCount: 0, calcCount: removed };
    },
  });

  routeContract(app, listModelData, async (req) => {
    const { pageNumber = 1, pageSize = 10, modelName, groupName, sort } = req.query;
    const scope = await computeDeptScope(db, req.user!);
    let qb = scopedByOwnerDept(db.selectFrom('model_output'), scope);
    if (modelName) qb = qb.where('output_kind', '=', modelName);
    if (groupName?.trim()) qb = qb.where('group_name', '=', groupName.trim());
    const countRow = await qb.select((eb) => eb.fn.count<number>('group_name').distinct().as('n')).executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    const asc = sort === 'createTime,asc';
    const groups = total
      ? await qb
          .select((eb) => ['group_name', eb.fn.max('create_time').as('created'), eb.fn.max('id').as('last_id')])
          .groupBy('group_name')
          .orderBy('created', asc ? 'asc' : 'desc')
          .orderBy('last_id', asc ? 'asc' : 'desc')
          .limit(pageSize)
          .offset((pageNumber - 1) * pageSize)
          .execute()
      : [];
    const names = groups.map((g) => String(g.group_name));
    const files = names.length ? await db.selectFrom('model_output').selectAll().where('group_name', 'in', names).orderBy('id').execute() : [];
    const content = names.map((name) => {
      const fs = files.filter((f) => f.group_name === name);
      const first = fs[0];
      return {
        id: Number(first.id),
        modelName: first.output_kind,
        modelTitle: first.model_title,
        groupName: name,
        taskName: first.task_name,
        fileName: first.file_name,
        files: fs.map((f) => ({ id: Number(f.id), fileName: f.file_name, rows: Number(f.rows_out), size: Number(f.bytes) })),
        rowsOut: fs.reduce((a, f) => a + Number(f.rows_out), 0),
        createTime: first.create_time,
      };
    });
    return { content, totalElements: total };
  });

  routeContract(app, listModelDataGroups, async (req) => {
    const scope = await computeDeptScope(db, req.user!);
    const rows = await scopedByOwnerDept(db.selectFrom('model_output'), scope)
      .select((eb) => ['group_name', eb.fn.max('id').as('last_id')])
      .groupBy('group_name')
      .orderBy('last_id', 'desc')
      .limit(500)
      .execute();
    return rows.map((r) => String(r.group_name));
  });

  routeContract(app, previewModelData, async (req) => {
      const scope = await computeDeptScope(db, req.user!);
      const f = await scopedByOwnerDept(db.selectFrom('model_output'), scope).selectAll().where('id', '=', req.query.id).executeTakeFirst();
      if (!f) throw new AppError('MODELDATA_FILE_NOT_FOUND');
      if (Number(f.bytes) > PREVIEW_MAX_BYTES) throw new AppError('MODELDATA_ZIP_TOO_LARGE', { max: `${PREVIEW_MAX_BYTES / MiB} MB` });
      const stream = await (await app.storage.storeFor(outputRef(f))).get(String(f.storage_key));
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      const wb = openWorkbook(Buffer.concat(chunks));
      const rows: unknown[][] = [];
      let header: unknown[] = [];
      let total = 0;
      for await (const r of wb.rows) {
        if (r.row === 1) {
          header = r.cells;
          continue;
        }
        total += 1;
        if (rows.length < PREVIEW_ROWS) rows.push(r.cells);
      }
      return { fileName: f.file_name, columns: header.map((h) => String(h ?? '')), rows, total, sheetNames: [wb.sheetName] };
  });

  routeContract(app, exportModelData, async (req, reply) => {
      const raw = req.body?.groupName ?? '';
      const groups = [...new Set((Array.isArray(raw) ? raw : raw.split(',')).map((s) => s.trim()).filter(Boolean))];
      if (!groups.length) throw new AppError('MODELDATA_GROUP_REQUIRED');
      const scope = await computeDeptScope(db, req.user!);
      const files = await scopedByOwnerDept(db.selectFrom('model_output'), scope)
        .select(['group_name', 'file_name', 'storage_key', 'bytes', 'provider', 'bucket', 'type'])
        .where('group_name', 'in', groups)
        .orderBy('id')
        .execute();
      if (!files.length) throw new AppError('MODELDATA_EMPTY');
      const totalBytes = files.reduce((a, f) => a + Number(f.bytes), 0);
      if (totalBytes > zipMax(app)) throw new AppError('MODELDATA_ZIP_TOO_LARGE', { max: `${Math.round(zipMax(app) / MiB)} MB` });
      // each file from the store it was written to (one client per store)
      const stores = new Map<string, ObjectStore>();
      const outputs: ZipOutput[] = [];
      for (const f of files) {
        const ref = outputRef(f);
        const k = `${ref.provider}\n${ref.bucket}\n${ref.type}`;
        if (!stores.has(k)) stores.set(k, await app.storage.storeFor(ref));
        outputs.push({ ...f, store: stores.get(k)! });
      }
      await checkOutputsExist(outputs);
      return sendOutputsZip(app, reply, outputs);
  });
}
