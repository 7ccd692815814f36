import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  type CustomSaveBody,
  createCustomDatasource,
  type customRow,
  deleteCustomDatasource,
  listCustomDatasources,
  listDatasets,
  updateCustomDatasource,
} from '@app/shared/contracts/operations/dataSources';
import type { CurrentUser } from '../../../core/context.ts';
import { insertReturningId, likeContains, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { DATASETS, datasetColumnNames, datasetFields, datasetOf, projectionTableData } from './datasets.ts';
import { encodingOf, trimmed } from './dataOriginChecks.ts';
import { customFromRow, loadCustom } from './store.ts';
import type { CustomDatasourceRecord } from './types.ts';
import { countOf } from '../../../crud/pagedQuery.ts';

/** The `/customDatasource` endpoints of spec §7 "Data" and the dataset catalogue the custom-source dialog needs. */

function customToApi(r: CustomDatasourceRecord): z.infer<typeof customRow> {
  return { ...r, datasetName: datasetOf(r.dataset)?.label ?? r.dataset };
}

export function registerCustomDatasourceRoutes(app: FastifyInstance): void {
  const db = app.ctx.db;

  routeContract(app, listCustomDatasources, async (req) => {
      const { pageNumber = 1, pageSize = 10, name } = req.query;
      let qb = db.selectFrom('custom_datasource');
      if (name) qb = qb.where(likeContains(app.ctx.dialect, 'name', name));
      const total = await countOf(qb);
      const rows = total
        ? await qb
            .selectAll()
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((pageNumber - 1) * pageSize)
            .execute()
        : [];
      return { content: rows.map((r) => customToApi(customFromRow(r))), totalElements: total };
  });

  routeContract(app, listDatasets, async () =>
    DATASETS.map((ds) => {
      const names = datasetColumnNames(ds);
      return { key: ds.key, label: ds.label, fields: datasetFields(ds).map((f) => ({ field: f.name, fieldName: names.get(f.name)!, type: f.kind })) };
    }),
  );

  async function saveCustom(body: CustomSaveBody, user: CurrentUser, existing?: CustomDatasourceRecord) {
    const name = trimmed(body.name);
    if (!name) throw new AppError('DATASOURCE_NAME_REQUIRED', {});
    const characterEncoding = encodingOf(body.characterEncoding);
    const ds = datasetOf(trimmed(body.dataset) ?? '');
    if (!ds) throw new AppError('CUSTOM_DATASOURCE_DATASET', { value: trimmed(body.dataset) ?? '' });
    // fields by API name, or by the column name the list shows
    const byColumn = new Map([...datasetColumnNames(ds)].map(([field, col]) => [col, field]));
    const fields = (body.tableData ?? []).map((t) => t.field ?? byColumn.get(t.fieldName ?? '') ?? t.fieldName ?? '').filter(Boolean);
    if (!fields.length) throw new AppError('CUSTOM_DATASOURCE_FIELDS_REQUIRED', {});
    const tableData = projectionTableData(ds, fields);
    const clash = await db.selectFrom('custom_datasource').select('id').where('name', '=', name).executeTakeFirst();
    if (clash && Number(clash.id) !== existing?.id) throw new AppError('CUSTOM_DATASOURCE_NAME_TAKEN', {});
    const now = nowIso();
    const values = { name, dataset: ds.key, character_encoding: characterEncoding, table_data: JSON.stringify(tableData), update_time: now };
    if (existing) {
      await db.updateTable('custom_datasource').set(values).where('id', '=', existing.id).execute();
      // the data sources built on it show the new column list
      await db.updateTable('data_origin').set({ table_data: JSON.stringify(tableData), update_time: now }).where('custom_datasource_id', '=', existing.id).execute();
      return existing.id;
    }
    return insertReturningId(db, app.ctx.dialect, 'custom_datasource', { ...values, create_by: user.username, create_time: now });
  }

  routeContract(app, createCustomDatasource, async (req, reply) => {
      const id = await saveCustom(req.body, req.user!);
      reply.status(201);
      return customToApi(await loadCustom(db, id));
  });

  routeContract(app, updateCustomDatasource, async (req) => {
      if (!req.body.id) throw new AppError('ID_REQUIRED', {});
      const existing = await loadCustom(db, req.body.id);
      await saveCustom(req.body, req.user!, existing);
      return customToApi(await loadCustom(db, existing.id));
  });

  routeContract(app, deleteCustomDatasource, async (req) => {
      const existing = await loadCustom(db, req.body.id);
      const used = await db.selectFrom('data_origin').select('id').where('custom_datasource_id', '=', existing.id).limit(1).executeTakeFirst();
      if (used) throw new AppError('CUSTOM_DATASOURCE_IN_USE', {});
      await db.deleteFrom('custom_datasource').where('id', '=', existing.id).execute();
      return { message: '删除成功' };
  });
}
