import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dictionaryMap as dictionaryMapContract, type DictEntry } from '@app/shared/contracts/system';
import { queryText } from '../../crud/routeSchemas.ts';
import { dictDetailResource, dictResource } from '@app/shared/resources/dict';
import { registerResource } from '../../crud/registerResource.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { AppError } from '../../core/errors.ts';

/** Dictionaries and their entries, plus the name -> entries map every select box reads. */
export function registerDictionaries(app: FastifyInstance): void {
  registerResource(app, dictResource, {
    // Deleting a dictionary deletes its entries (the confirm text says so).
    beforeDelete: async (ids, { db }) => {
      await db.deleteFrom('sys_dict_detail').where('dict_id', 'in', ids).execute();
    },
  });

  registerResource(app, dictDetailResource, {
    prepareBody: (body) => {
      const dict = body.dict as { id?: unknown } | undefined;
      return dict && typeof dict === 'object' && body.dictId === undefined ? { ...body, dictId: dict.id } : body;
    },
    query: { dictName: queryText({ code: 'FIELD_INVALID', params: { label: '字典名称' } }) },
    filter: (_req, qb, query) => {
      const dictName = query.dictName;
      if (typeof dictName !== 'string' || !dictName) return qb;
      return qb.where('sys_dict_detail.dict_id', 'in', app.ctx.db.selectFrom('sys_dict').select('id').where('name', '=', dictName));
    },
    beforeWrite: async (values, { db }) => {
      if (values.dictId === undefined) return;
      const dict = await db.selectFrom('sys_dict').select('id').where('id', '=', values.dictId as number).executeTakeFirst();
      if (!dict) throw new AppError('DICT_NOT_FOUND');
    },
    decorate: async (rows, _req) => {
      const ids = [...new Set(rows.map((r) => r.dictId as number))];
      const dicts = await app.ctx.db.selectFrom('sys_dict').select(['id', 'name']).where('id', 'in', ids).execute();
      const byId = new Map(dicts.map((d) => [d.id as number, d]));
      for (const r of rows) r.dict = byId.get(r.dictId as number) ?? null;
    },
  });

  routeContract(app.withTypeProvider<ZodTypeProvider>(), dictionaryMapContract, async (req) => {
    const raw = req.query.dictName;
    if (typeof raw !== 'string' || !raw.trim()) throw new AppError('DICT_NAME_REQUIRED');
    const names = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))].slice(0, 50);
    return dictionaryMap(app, names);
  });
}

/**
 * name -> [{label, value}] sorted by `sort`, for each requested dictionary (empty list when unknown). The names
 * come from the request, so the answer is built on a prototype-less object: `__proto__` or `constructor` is just
 * a dictionary that does not exist. Rows are filed under the name exactly as asked; MariaDB's `in` also matches
 * other cases and trailing spaces, and those rows belong to no requested name.
 */
export async function dictionaryMap(app: FastifyInstance, names: string[]): Promise<Record<string, DictEntry[]>> {
  const byName = new Map<string, DictEntry[]>(names.map((n) => [n, []]));
  if (names.length) {
    const rows = await app.ctx.db
      .selectFrom('sys_dict_detail as d')
      .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
      .select(['t.name as dictName', 'd.id', 'd.label', 'd.value', 'd.sort'])
      .where('t.name', 'in', names)
      .orderBy('d.sort', 'asc')
      .orderBy('d.id', 'asc')
      .execute();
    for (const r of rows) byName.get(r.dictName as string)?.push({ id: r.id, label: r.label ?? '', value: r.value ?? '', sort: Number(r.sort) });
  }
  const out: Record<string, DictEntry[]> = Object.create(null);
  for (const [name, entries] of byName) out[name] = entries;
  return out;
}
