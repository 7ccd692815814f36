import type { FastifyInstance } from 'fastify';
import { deleteModel, getModel, listModels, MODEL_CODES, saveModel, setModelShelf } from '@app/shared/contracts/operations/models';
import { likeContains, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { SECRET_MASK } from '../../../core/secrets.ts';
import { BUILTIN_PREFIX, builtinOf, checkParameterInfo } from './catalogue.ts';
import { parseSite } from './external.ts';
import { externalPolicy, findModel, modelFromDb, modelToApi, OFF_SHELF, ON_SHELF, type ModelRow } from './modelStore.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { FILE_TYPES } from './types.ts';
import { countOf } from '../../../crud/pagedQuery.ts';

export { MODEL_CODES };

/** Tasks that are enabled or running (isPause 0 or 3) keep a model on shelf. */
async function activeTaskCount(app: FastifyInstance, modelId: number): Promise<{ any: number; active: number }> {
  const rows = await app.ctx.db.selectFrom('model_task').select('is_pause').where('model_id', '=', modelId).execute();
  return { any: rows.length, active: rows.filter((r) => [0, 3].includes(Number(r.is_pause))).length };
}

/** Built-in sites must exist; external ones must pass the allow-list and address checks. */
async function checkSite(app: FastifyInstance, site: string): Promise<void> {
  if (site.startsWith(BUILTIN_PREFIX)) {
    if (!builtinOf(site)) throw new AppError('MODEL_BUILTIN_MISSING');
    return;
  }
  parseSite(site, externalPolicy(app));
}

/** /ModelManageMent/*: the model manager (spec §2, §4 shelf rules, §5 rules with their messages). */
export function registerModelRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  routeContract(app, listModels, async (req) => {
    const { pageNumber = 1, pageSize = 10, modelName, statu } = req.query;
    let qb = db.selectFrom('analysis_model');
    if (modelName?.trim()) qb = qb.where(likeContains(app.ctx.dialect, 'model_name', modelName.trim()));
    if (statu) qb = qb.where('statu', '=', statu);
    const total = await countOf(qb);
    const rows = total ? await qb.selectAll().orderBy('id', 'asc').limit(pageSize).offset((pageNumber - 1) * pageSize).execute() : [];
    return { content: rows.map((r) => modelToApi(modelFromDb(r))), totalElements: total };
  });

  routeContract(app, getModel, async (req) => modelToApi(await findModel(app, req.query.id)));

  routeContract(app, saveModel, async (req, reply) => {
    const b = req.body;
    const isUpdate = b.id !== undefined && b.id !== null;
    // the form's own rules first (they reveal nothing), then which code the operation needs: create or edit
    const modelName = String(b.modelName ?? '').trim();
    const fileType = String(b.fileType ?? '').trim();
    const site = String(b.site ?? '').trim();
    const statu = b.statu === undefined || b.statu === null || b.statu === '' ? null : Number(b.statu);
    if (!fileType) throw new AppError('MODEL_TYPE_REQUIRED');
    if (!(FILE_TYPES as readonly string[]).includes(fileType)) throw new AppError('MODEL_TYPE_REQUIRED');
    if (!modelName) throw new AppError('MODEL_NAME_REQUIRED');
    if (modelName.length > 50) throw new AppError('FIELD_TOO_LONG', { label: '模型名称', max: 50 });
    if (!site) throw new AppError('MODEL_SITE_REQUIRED');
    if (statu !== ON_SHELF && statu !== OFF_SHELF) throw new AppError('MODEL_STATU_REQUIRED');
    const codes = req.user?.permissions ?? [];
    const may = (list: readonly string[]) => codes.includes('ADMIN') || list.some((c) => codes.includes(c));
    if (!may(isUpdate ? MODEL_CODES.edit : MODEL_CODES.create)) throw new AppError('FORBIDDEN');
    const existing = isUpdate ? await findModel(app, Number(b.id)) : null;
    if (existing && existing.statu === ON_SHELF) throw new AppError('MODEL_ON_SHELF_EDIT');
    if (existing?.builtin && (site !== existing.site || fileType !== existing.fileType)) throw new AppError('MODEL_BUILTIN_FIXED');
    if (!existing?.builtin && site.startsWith(BUILTIN_PREFIX)) throw new AppError('MODEL_BUILTIN_FIXED');
    const parameterInfo = checkParameterInfo(b.parameterInfo ?? []);
    await checkSite(app, site);
    // a built-in model keeps its own parameter codes and types: only names and defaults can change
    if (existing?.builtin) {
      const wanted = existing.parameterInfo.map((p) => `${p.parameterCode}:${p.parameterType}`).join(',');
      if (parameterInfo.map((p) => `${p.parameterCode}:${p.parameterType}`).join(',') !== wanted) throw new AppError('MODEL_BUILTIN_FIXED');
    }
    const dup = await db.selectFrom('analysis_model').select('id').where('model_name', '=', modelName).executeTakeFirst();
    if (dup && Number(dup.id) !== existing?.id) throw new AppError('MODEL_NAME_TAKEN');

    const secretInput = typeof b.secret === 'string' ? b.secret.trim() : '';
    const secretEnc = secretInput && secretInput !== SECRET_MASK ? app.ctx.secrets.seal(secretInput) : (existing?.secretEnc ?? null);
    const now = nowIso();
    const values = {
      model_name: modelName,
      site,
      file_type: fileType,
      statu,
      parameter_info: JSON.stringify(parameterInfo),
      output_kind: existing?.outputKind ?? 'xls',
      secret_enc: site.startsWith(BUILTIN_PREFIX) ? null : secretEnc,
      update_time: now,
    };
    if (existing) {
      await db.updateTable('analysis_model').set(values).where('id', '=', existing.id).execute();
      return reply.code(204).send();
    }
    const user = req.user?.username ?? null;
    await db.insertInto('analysis_model').values({ ...values, builtin: 0, create_by: user, create_time: now }).execute();
    const created = await db.selectFrom('analysis_model').selectAll().where('model_name', '=', modelName).executeTakeFirstOrThrow();
    return reply.code(201).send(modelToApi(modelFromDb(created)));
  });

  routeContract(app, deleteModel, async (req) => {
    const m = await findModel(app, req.body.id);
    if (m.statu === ON_SHELF) throw new AppError('MODEL_ON_SHELF_DELETE');
    if (m.builtin) throw new AppError('MODEL_BUILTIN_DELETE');
    if ((await activeTaskCount(app, m.id)).any > 0) throw new AppError('MODEL_IN_USE');
    await db.deleteFrom('analysis_model').where('id', '=', m.id).execute();
    return { message: '删除成功' };
  });

  routeContract(app, setModelShelf, async (req) => {
      const m: ModelRow = await findModel(app, req.body.id);
      const target = req.body.statu === undefined || req.body.statu === null ? (m.statu === ON_SHELF ? OFF_SHELF : ON_SHELF) : Number(req.body.statu);
      if (target === OFF_SHELF && m.statu === ON_SHELF && (await activeTaskCount(app, m.id)).active > 0) throw new AppError('MODEL_ACTIVE_TASKS');
      if (target === ON_SHELF) await checkSite(app, m.site);
      await db.updateTable('analysis_model').set({ statu: target, update_time: nowIso() }).where('id', '=', m.id).execute();
      return { statu: target, message: target === ON_SHELF ? '上架成功' : '下架成功' };
  });
}
