import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { nowIso } from '../../../core/db.ts';
import type { DB } from '../../../core/dbTypes.ts';
import { AppError } from '../../../core/errors.ts';
import { BUILTIN_MODELS, BUILTIN_PREFIX } from './catalogue.ts';
import type { ExternalModelPolicy } from './external.ts';
import { DEFAULT_EXTERNAL_POLICY } from './external.ts';
import type { FileType, OutputKind, ParameterInfo } from './types.ts';

/** A model row as the code uses it. */
export interface ModelRow {
  id: number;
  modelName: string;
  site: string;
  fileType: FileType;
  statu: 1 | 2;
  parameterInfo: ParameterInfo[];
  outputKind: OutputKind;
  builtin: boolean;
  secretEnc: string | null;
  createTime: string | null;
  updateTime: string | null;
}

export const ON_SHELF = 1;
export const OFF_SHELF = 2;

function parseJsonArray<T>(text: unknown): T[] {
  if (typeof text !== 'string' || !text) return [];
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** An `analysis_model` row as read from the database. */
export type ModelDbRow = Selectable<DB['analysis_model']>;

export function modelFromDb(r: ModelDbRow): ModelRow {
  return {
    id: Number(r.id),
    modelName: r.model_name,
    site: r.site,
    fileType: r.file_type as FileType,
    statu: Number(r.statu) === ON_SHELF ? 1 : 2,
    parameterInfo: parseJsonArray<ParameterInfo>(r.parameter_info),
    outputKind: r.output_kind as OutputKind,
    builtin: Number(r.builtin) === 1,
    secretEnc: r.secret_enc,
    createTime: r.create_time,
    updateTime: r.update_time,
  };
}

/** A site fit for the screen: no user info, no query string (which may carry a key). */
export function displaySite(site: string): string {
  if (site.startsWith(BUILTIN_PREFIX)) return site;
  try {
    const u = new URL(site);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return site.slice(0, 100);
  }
}

/** The API shape of a model (never the secret). */
export function modelToApi(m: ModelRow) {
  return {
    id: m.id,
    modelName: m.modelName,
    site: displaySite(m.site),
    fileType: m.fileType,
    statu: m.statu,
    parameterInfo: m.parameterInfo,
    outputKind: m.outputKind,
    builtin: m.builtin,
    hasSecret: Boolean(m.secretEnc),
    createTime: m.createTime,
    updateTime: m.updateTime,
  };
}

export async function findModel(app: FastifyInstance, id: number): Promise<ModelRow> {
  const r = await app.ctx.db.selectFrom('analysis_model').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('MODEL_NOT_FOUND');
  return modelFromDb(r);
}

/**
 * Insert the built-in models that are missing (matched by site, so a renamed one is not added again); on shelf.
 * Idempotent and safe beside another instance doing the same (a lost race on the unique name is ignored).
 */
export async function seedBuiltinModels(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db;
  const present = new Set((await db.selectFrom('analysis_model').select('site').where('builtin', '=', 1).execute()).map((r) => String(r.site)));
  const now = nowIso();
  for (const m of BUILTIN_MODELS) {
    const site = `${BUILTIN_PREFIX}${m.code}`;
    if (present.has(site)) continue;
    await db
      .insertInto('analysis_model')
      .values({
        model_name: m.modelName,
        site,
        file_type: m.fileType,
        statu: ON_SHELF,
        parameter_info: JSON.stringify(m.parameterInfo),
        output_kind: m.outputKind,
        builtin: 1,
        secret_enc: null,
        create_by: 'system',
        create_time: now,
        update_time: now,
      })
      .execute()
      .catch(() => undefined);
  }
}

/** The external-model policy from the configuration (allow-lists, limits). */
export function externalPolicy(app: FastifyInstance): ExternalModelPolicy {
  const c = app.ctx.config as { modelSites?: Partial<ExternalModelPolicy> };
  return { ...DEFAULT_EXTERNAL_POLICY, ...(c.modelSites ?? {}) };
}
