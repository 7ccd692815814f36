import { AppError } from '../../../core/errors.ts';
import { crosstabModel, distributionModel } from './analysisModels.ts';
import { contractExpiryModel, dataQualityModel, laborCostModel, payAnomalyModel, siBaseCheckModel } from './officeModels.ts';
import { type BuiltinModel, PARAMETER_TYPES, type ParameterInfo } from './types.ts';

/** The built-in models, seeded on shelf; a model row's `site` is `builtin:<code>`. */
export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  distributionModel,
  crosstabModel,
  laborCostModel,
  siBaseCheckModel,
  payAnomalyModel,
  dataQualityModel,
  contractExpiryModel,
];

const byCode = new Map(BUILTIN_MODELS.map((m) => [m.code, m]));

export const BUILTIN_PREFIX = 'builtin:';

/** The built-in model a site names, or undefined (also for external sites). */
export function builtinOf(site: string): BuiltinModel | undefined {
  return site.startsWith(BUILTIN_PREFIX) ? byCode.get(site.slice(BUILTIN_PREFIX.length)) : undefined;
}

/** A model whose name contains 单例 needs a filter condition (spec §5). */
export const needsProperty = (modelName: string): boolean => modelName.includes('单例');

const CODE_RE = /^[A-Za-z_]\w{0,39}$/;

/**
 * parameterInfo rules of spec §5 with their exact messages: the first row's code must be given; no row may
 * have an empty code, name or type; no row may repeat an earlier row's code, name and type together. Codes are
 * keys of task params, so a repeated code alone is refused as well, and a code must be an identifier.
 */
/** A parameterInfo row as a request may send it: any field missing or null, the type any text (checked here). */
export interface ParameterInfoInput {
  parameterCode?: string | null;
  parameterName?: string | null;
  parameterType?: string | null;
  defaultValue?: string | number | boolean | null;
}

export function checkParameterInfo(rows: readonly ParameterInfoInput[]): ParameterInfo[] {
  if (rows.length === 0) return [];
  const first = rows[0];
  if (!String(first.parameterCode ?? '').trim()) throw new AppError('MODEL_PARAM_FIRST_REQUIRED');
  const out: ParameterInfo[] = [];
  for (const row of rows) {
    const code = String(row.parameterCode ?? '').trim();
    const name = String(row.parameterName ?? '').trim();
    const type = String(row.parameterType ?? '').trim();
    if (!code || !name || !type) throw new AppError('MODEL_PARAM_EMPTY');
    if (!(PARAMETER_TYPES as readonly string[]).includes(type)) throw new AppError('MODEL_PARAM_TYPE', { type: type.slice(0, 20) });
    if (out.some((o) => o.parameterCode === code && o.parameterName === name && o.parameterType === type)) throw new AppError('MODEL_PARAM_DUPLICATE');
    if (out.some((o) => o.parameterCode === code)) throw new AppError('MODEL_PARAM_CODE_DUPLICATE', { code });
    if (!CODE_RE.test(code)) throw new AppError('MODEL_PARAM_CODE_FORMAT', { code: code.slice(0, 40) });
    if (name.length > 50) throw new AppError('MODEL_PARAM_NAME_LENGTH');
    const kept: ParameterInfo = { parameterCode: code, parameterName: name, parameterType: type as ParameterInfo['parameterType'] };
    if (row.defaultValue !== undefined) kept.defaultValue = coerceParameter(kept, row.defaultValue);
    out.push(kept);
  }
  return out;
}

/** One parameter value coerced to its declared type (400 naming the parameter when it cannot be). */
export function coerceParameter(p: ParameterInfo, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined || value === '') return null;
  switch (p.parameterType) {
    case 'Interger': {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isSafeInteger(n)) throw new AppError('TASK_PARAM_TYPE', { name: p.parameterName, type: { code: 'PARAM_TYPE_INTEGER' } });
      return n;
    }
    case 'Boolean': {
      if (value === true || value === 'true' || value === 1 || value === '1') return true;
      if (value === false || value === 'false' || value === 0 || value === '0') return false;
      throw new AppError('TASK_PARAM_TYPE', { name: p.parameterName, type: { code: 'PARAM_TYPE_BOOLEAN' } });
    }
    default: {
      if (typeof value === 'object') throw new AppError('TASK_PARAM_TYPE', { name: p.parameterName, type: { code: 'PARAM_TYPE_TEXT' } });
      const s = String(value);
      if (s.length > 200) throw new AppError('TASK_PARAM_TYPE', { name: p.parameterName, type: { code: 'PARAM_TYPE_TEXT_MAX', params: { max: 200 } } });
      return s;
    }
  }
}

/** A task's parameters by the model's parameterInfo: unknown keys dropped, missing ones take the default. */
export function coerceTaskParameters(info: readonly ParameterInfo[], given: Record<string, unknown>): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const p of info) {
    const v = Object.hasOwn(given, p.parameterCode) ? coerceParameter(p, given[p.parameterCode]) : null;
    out[p.parameterCode] = v ?? p.defaultValue ?? null;
  }
  return out;
}
