import { dynamicDb } from '../core/db.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import type { FieldDef } from '@app/shared/resource';
import { columnOf, isLinkField, kindOf, MAX_IMPORT_BYTES, MAX_IMPORT_SIZE_LABEL, permissionCodes, validateField } from '@app/shared/resource';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESOURCES } from '@app/shared/resources/index';
import type { RouteAuth } from '../core/context.ts';
import { AppError, appErrorOf } from '../core/errors.ts';
import type { CellContext } from '../core/excel/columns.ts';
import { exportColumn, exportFields, importFields } from '../core/excel/columns.ts';
import { buildErrorSheet, loadErrorFile, saveErrorFile } from '../core/excel/errorFiles.ts';
import { failImportLog, finishImportLog, startImportLog, updateImportLog } from '../core/excel/importLog.ts';
import { ImportFileError, importWorkbook } from '../core/excel/importPipeline.ts';
import { renderFor, requestLanguage, translateLabel } from '../core/errorLanguage.ts';
import { openWorkbook } from '../core/excel/readWorkbook.ts';
import { WorkbookFormatError } from '../core/excel/types.ts';
import { attachmentDisposition } from '../core/excel/writeXlsx.ts';
import { sendXlsxStream } from '../core/excel/xlsxStream.ts';
import type { AnySelect, RegisteredResource } from './registerResource.ts';
import { noteRouteOrigin } from './registerContract.ts';
import { parsePaging, sortableColumns } from './listQuery.ts';
import { rowToApi } from './rowMapping.ts';
import { buildTemplate } from './importTemplate.ts';
import { safeText } from './routeSchemas.ts';
import { IMPORT_ERRORS_ROUTE, resourcePaths } from '@app/shared/resource/paths';

/**
 * Excel routes for any resource whose definition has `excel` options:
 * - `POST /api/import/<name>` multipart `file` (one file, <= MAX_IMPORT_BYTES from the shared package, i.e.
 *   50 MB; xls/xlsx by magic bytes) -> {total, inserted, updated, failed, digitLoss?, errors, errorFileId?}
 *   (digitLoss, present when not 0: failed rows with a number cell whose last digits Excel lost in a text
 *   column such as the ID card); needs the resource's create code;
 * - `GET|POST /api/export/<name>` with the list's filters and sort -> streamed .xlsx; needs its select code;
 * - `POST /api/download/<name>` -> the import template (Chinese headers, dictionary drop-downs, notes);
 * - `GET /api/import/errors/:id` -> the error sheet of an import (one hour, uploader only).
 * Re-import semantics: rows whose `importKey` matches an existing row (within the caller's scope) update
 * it; empty cells then keep the current value.
 */

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXPORT_CHUNK = 250;

export interface ExcelRouteOptions {
  /** Fill derivable values of an imported row (only where missing), e.g. bases from the company. */
  prepareImportRow?: (values: Record<string, unknown>, req: FastifyRequest, mode: 'create' | 'update') => Promise<void> | void;
  /** Cross-field rules checked on every imported row with its field checks (importPipeline's rowChecks). */
  importRowChecks?: (values: Record<string, unknown>) => Record<string, FieldMessage>;
  /** Fields an import file may omit because prepareImportRow derives them. */
  derivedOnImport?: string[];
  /** Query (or multipart) parameters that give imported rows a default, e.g. companyId of the screen. */
  importDefaults?: string[];
  /** Extra template notes per field. */
  templateHints?: Record<string, string>;
  /** Drop-down options per non-dictionary field for the template (e.g. labels of a label-valued dictionary). */
  templateOptions?: (req: FastifyRequest) => Promise<Record<string, string[]>>;
  /** Registered resources that `ref` fields point to, so their labels resolve within the caller's scope. */
  refSources?: Record<string, RegisteredResource>;
  /** Further paths the same import answers on, e.g. the spec's upload-host form `/accounts/api/import/accountsStaff`. */
  importAliases?: string[];
}

/** Register import, export and template routes for a resource with `excel` options. */
export function registerExcelRoutes(fastify: FastifyInstance, resource: RegisteredResource, opts: ExcelRouteOptions = {}): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const def = resource.def;
  const paths = resourcePaths(def.name);
  const excel = def.excel;
  if (!excel) throw new Error(`resource ${def.name} has no excel options`);
  const auth = (codes: string[]): RouteAuth => (codes.length ? codes : 'user');
  const importAuth = auth(permissionCodes(def, 'import'));
  const exportAuth = auth(permissionCodes(def, 'export'));
  const templateAuth = auth([...new Set([...permissionCodes(def, 'import'), ...permissionCodes(def, 'export')])]);

  async function refLabels(req: FastifyRequest, fields: FieldDef[]): Promise<Map<string, { id: number; label: string }[]>> {
    const out = new Map<string, { id: number; label: string }[]>();
    for (const f of fields) {
      if ((kindOf(f).excel.read !== 'ref' && !isLinkField(f)) || !f.ref) continue;
      const target = RESOURCES[f.ref.resource];
      if (!target) continue;
      const labelField = target.fields.find((x) => x.name === f.ref!.labelField);
      const labelCol = `${target.table}.${labelField ? columnOf(labelField) : 'id'}`;
      const source = opts.refSources?.[f.ref.resource];
      const qb: AnySelect = source ? await source.listQuery(req, {}) : dynamicDb(app.ctx.db).selectFrom(target.table);
      const rows = await qb.select([`${target.table}.id as id`, `${labelCol} as label`]).execute();
      out.set(
        f.name,
        rows.map((r) => ({ id: Number(r.id), label: String(r.label ?? r.id) })),
      );
    }
    return out;
  }

  async function dictionaries(names: string[]): Promise<Map<string, { label: string; value: string }[]>> {
    const out = new Map<string, { label: string; value: string }[]>();
    for (const n of names) out.set(n, []);
    if (!names.length) return out;
    const rows = await app.ctx.db
      .selectFrom('sys_dict_detail as d')
      .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
      .select(['t.name as dictName', 'd.label', 'd.value'])
      .where('t.name', 'in', names)
      .orderBy('d.sort', 'asc')
      .orderBy('d.id', 'asc')
      .execute();
    for (const r of rows) out.get(r.dictName as string)!.push({ label: String(r.label), value: String(r.value) });
    return out;
  }
  const dictNames = (fields: FieldDef[]) => [...new Set(fields.filter((f) => kindOf(f).excel.read === 'dict' && f.dict).map((f) => f.dict!))];

  // ---------------------------------------------------------------- import
  const tags = [def.label];
  // an upload (multipart); the query string may carry the import defaults (e.g. the company)
  const importQuery = z.looseObject({});
  const importSchema = { tags, summary: `导入${def.label}（multipart 字段 file）`, querystring: importQuery };
  const importHandler = async (req: FastifyRequest<{ Querystring: z.output<typeof importQuery> }>) => {
    const upload = await readUpload(req);
    let wb: ReturnType<typeof openWorkbook>;
    try {
      wb = openWorkbook(upload.data);
    } catch (err) {
      if (err instanceof WorkbookFormatError) throw appErrorOf(err);
      throw err;
    }
    const fields = importFields(def);
    const dicts = await dictionaries(dictNames(fields));
    const refs = await refLabels(req, fields);
    const lookups: Omit<CellContext, 'date1904'> = { dictValues: new Map(), dictLabels: new Map(), refIds: new Map() };
    for (const [name, entries] of dicts) {
      const m = new Map<string, string>();
      for (const e of entries) if (!m.has(e.value)) m.set(e.value, e.value);
      for (const e of entries) m.set(e.label, e.value); // labels win over values
      lookups.dictValues.set(name, m);
      lookups.dictLabels.set(name, entries.map((e) => e.label));
    }
    for (const [field, rows] of refs) {
      const m = new Map<string, number>();
      for (const r of rows) m.set(String(r.id), r.id);
      for (const r of rows) m.set(r.label, r.id);
      lookups.refIds.set(field, m);
    }
    const defaults: Record<string, unknown> = {};
    for (const name of opts.importDefaults ?? []) {
      const raw = upload.fields[name] ?? req.query[name];
      if (raw === undefined || raw === null || raw === '') continue;
      const field = def.fields.find((f) => f.name === name);
      if (!field) continue;
      const r = validateField({ ...field, required: false }, Array.isArray(raw) ? raw[0] : raw);
      if (!r.ok) throw new AppError('FIELD_INVALID', { label: field.label });
      if (kindOf(field).excel.read === 'ref' && ![...(refs.get(name) ?? [])].some((x) => x.id === r.value)) throw new AppError('RECORD_NOT_FOUND', { resource: field.label });
      defaults[name] = r.value;
    }
    const keyFields = excel.importKey ?? [];
    const writeCtx = (mode: 'create' | 'update', existing?: Record<string, unknown>) => ({ req, db: app.ctx.db, mode, existing });
    let result: Awaited<ReturnType<typeof importWorkbook>>;
    // the progress row an interrupted import leaves behind (S8): counts after every committed chunk
    const logId = await startImportLog(app.ctx.db, app.ctx.dialect, {
      label: def.label,
      resource: def.name,
      file: upload.fileName ?? '',
      resumable: keyFields.length > 0,
      username: req.user?.username ?? null,
      ip: req.ip,
      browser: String(req.headers['user-agent'] ?? ''),
    });
    let written = { inserted: 0, updated: 0, failed: 0 };
    try {
      result = await importWorkbook(wb, {
        onChunkWritten: async (counts) => {
          written = counts;
          await updateImportLog(app.ctx.db, logId, counts);
        },
        def,
        db: app.ctx.db,
        dialect: app.ctx.dialect,
        lookups,
        defaults,
        derived: new Set(opts.derivedOnImport ?? []),
        prepareRow: opts.prepareImportRow ? (values, mode) => opts.prepareImportRow!(values, req, mode) : undefined,
        rowChecks: opts.importRowChecks,
        findExisting: keyFields.length ? (keys) => findExisting(req, keys) : undefined,
        beforeWrite: resource.hooks.beforeWrite ? (values, mode, existing) => resource.hooks.beforeWrite!(values, writeCtx(mode, existing)) : undefined,
        afterWrite: resource.hooks.afterWrite ? (row, trx, mode, existing) => resource.hooks.afterWrite!(row, { req, db: trx, mode, existing }) : undefined,
      });
    } catch (err) {
      await failImportLog(app.ctx.db, logId, written, err instanceof Error ? err.message : String(err));
      if (err instanceof ImportFileError || err instanceof WorkbookFormatError) throw appErrorOf(err);
      if (err instanceof Error && /incorrect header check|invalid (block|distance|stored)|unexpected end/i.test(err.message)) {
        throw new AppError('FILE_CORRUPT');
      }
      throw err;
    }
    await finishImportLog(app.ctx.db, logId);
    // the row problems are codes up to here: the answer and the error sheet speak the request's language
    const language = requestLanguage(req.headers['accept-language']);
    const columnName = (label: string) => (language === 'zh' || !label ? label : (translateLabel(label, language) ?? label));
    const body: {
      total: number;
      inserted: number;
      updated: number;
      failed: number;
      digitLoss?: number;
      errors: { row: number; column: string; message: string }[];
      errorsTruncated?: boolean;
      errorFileId?: string;
    } = {
      total: result.total,
      inserted: result.inserted,
      updated: result.updated,
      failed: result.failed,
      errors: result.errors.map((e) => ({ row: e.row, column: columnName(e.column), message: renderFor(e.message.code, language, e.message.params) })),
    };
    if (result.digitLoss) body.digitLoss = result.digitLoss;
    if (result.errorsTruncated) body.errorsTruncated = true;
    if (result.failedRows.length) {
      const sheet = await buildErrorSheet(result.header, result.dateColumns, result.failedRows, wb.date1904, language);
      body.errorFileId = await saveErrorFile(app.ctx.cache, req.user!.id, renderFor('IMPORT_ERROR_FILE_NAME', language, { resource: def.label }), sheet);
    }
    return body;
  };
  for (const url of [paths.import, ...(opts.importAliases ?? [])]) {
    noteRouteOrigin(app, 'POST', url, 'definition');
    app.post(url, { config: { auth: importAuth, log: `导入${def.label}` }, schema: importSchema }, importHandler);
  }

  async function findExisting(req: FastifyRequest, keys: unknown[][]): Promise<Record<string, unknown>[]> {
    const keyFields = (excel!.importKey ?? []).map((n) => def.fields.find((f) => f.name === n)!);
    let qb = await resource.listQuery(req, {});
    keyFields.forEach((f, i) => {
      const values = [...new Set(keys.map((k) => k[i]))] as (string | number)[];
      qb = qb.where(`${def.table}.${columnOf(f)}`, 'in', values);
    });
    const rows = await qb.selectAll(def.table).execute();
    return rows.map((r) => rowToApi(def, r as Record<string, unknown>));
  }

  // ---------------------------------------------------------------- export
  const sortable = sortableColumns(def);
  const defaultSort = def.defaultSort ?? [['id', 'desc']];
  // Filters, sort and paging are checked by the route schema before the first byte of the file goes out.
  const exportHandler = async (req: FastifyRequest, reply: FastifyReply, queryString: Record<string, unknown>, postBody?: Record<string, unknown>) => {
    // POST bodies carry the same filters as the query string (checked by the same schema).
    const query = { ...postBody, ...queryString };
    const { sort } = parsePaging(query, sortable, defaultSort);
    const filtered = await resource.listQuery(req, query);
    const fields = exportFields(def);
    const dicts = await dictionaries(dictNames(fields));
    const refs = await refLabels(req, fields);
    const dictLabelOf = new Map([...dicts].map(([n, entries]) => [n, new Map(entries.map((e) => [e.value, e.label]))]));
    const refLabelOf = new Map([...refs].map(([n, rows]) => [n, new Map(rows.map((r) => [r.id, r.label]))]));
    const columns = fields.map((f) => exportColumn(f, { dictLabelOf, refLabelOf }));
    return sendXlsxStream(reply, { fileName: excel!.fileName, sheetName: excel!.fileName, columns, rows: exportRows(req, filtered, sort) });
  };

  async function* exportRows(req: FastifyRequest, filtered: AnySelect, sort: [string, 'asc' | 'desc'][]): AsyncGenerator<Record<string, unknown>> {
    const table = def.table;
    // only the exported columns (and the id the paging needs): a third less to read and map per row
    const columns = [...new Set(['id', ...exportFields(def).filter((f) => !isLinkField(f)).map((f) => columnOf(f))])].map((c) => `${table}.${c}`);
    const select = (qb: AnySelect) => (resource.hooks.select ? resource.hooks.select(qb) : qb.select(columns));
    const byIdOnly = sort.length === 1 && sort[0][0] === 'id';
    let lastId: number | undefined;
    for (let offset = 0; ; offset += EXPORT_CHUNK) {
      let qb = select(filtered);
      if (byIdOnly) {
        const dir = sort[0][1];
        if (lastId !== undefined) qb = qb.where(`${table}.id`, dir === 'desc' ? '<' : '>', lastId);
        qb = qb.orderBy(`${table}.id`, dir).limit(EXPORT_CHUNK);
      } else {
        for (const [c, d] of sort) qb = qb.orderBy(c.includes('.') ? c : `${table}.${c}`, d);
        qb = qb.limit(EXPORT_CHUNK).offset(offset);
      }
      const raw = (await qb.execute()) as Record<string, unknown>[];
      if (raw.length) lastId = Number(raw[raw.length - 1].id);
      const rows = raw.map((r) => rowToApi(def, r));
      if (resource.hooks.decorate && rows.length) await resource.hooks.decorate(rows, req);
      await resource.attachLinks(rows);
      yield* rows;
      if (raw.length < EXPORT_CHUNK) return;
    }
  }

  const listQuery = resource.querySchema;
  const exportSchema = { tags, summary: `导出${def.label}（.xlsx）`, querystring: listQuery };
  noteRouteOrigin(app, 'GET', paths.export, 'definition');
  app.get(paths.export, { config: { auth: exportAuth, log: `导出${def.label}` }, schema: exportSchema }, (req, reply) => exportHandler(req, reply, req.query));
  noteRouteOrigin(app, 'POST', paths.export, 'definition');
  app.post(paths.export, { config: { auth: exportAuth, log: `导出${def.label}` }, schema: { ...exportSchema, body: listQuery.nullish() } }, (req, reply) =>
    // a POST without a body (as the reference web client sends it) exports with the query's filters alone
    exportHandler(req, reply, req.query, req.body ?? undefined),
  );

  // ---------------------------------------------------------------- template
  noteRouteOrigin(app, 'POST', paths.template, 'definition');
  app.post(paths.template, { config: { auth: templateAuth, log: '' }, schema: { tags, summary: `${def.label}导入模板（.xlsx）` } }, async (req, reply) => {
    const fields = importFields(def);
    const dicts = await dictionaries(dictNames(fields));
    const extraOptions = opts.templateOptions ? await opts.templateOptions(req) : {};
    const derived = new Set([...(opts.derivedOnImport ?? []), ...(opts.importDefaults ?? [])]);
    const buf = await buildTemplate(def, fields, dicts, extraOptions, derived, opts.templateHints ?? {});
    reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', attachmentDisposition(`${excel.templateName}.xlsx`))
      .header('cache-control', 'no-store');
    return reply.send(buf);
  });

  // one route for every resource: the router is shared by all the areas' (encapsulated) contexts, so whichever
  // area registers an Excel resource first installs it
  if (!app.hasRoute({ method: 'GET', url: IMPORT_ERRORS_ROUTE })) {
    const schema = { tags: ['导入'], summary: '下载本人导入产生的错误文件', params: z.object({ id: safeText('ID', 64) }) };
    noteRouteOrigin(app, 'GET', IMPORT_ERRORS_ROUTE, 'definition');
    app.get(IMPORT_ERRORS_ROUTE, { config: { auth: 'user', log: '' }, schema }, async (req, reply) => {
      const file = await loadErrorFile(app.ctx.cache, req.params.id);
      if (!file) throw new AppError('IMPORT_ERROR_FILE_GONE');
      if (file.userId !== req.user!.id) throw new AppError('IMPORT_ERROR_FILE_OWNER');
      reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', attachmentDisposition(`${file.fileName}.xlsx`))
        .header('cache-control', 'no-store');
      return reply.send(file.data);
    });
  }
}

/** The one uploaded file (field `file`, at most MAX_IMPORT_BYTES) and the plain fields of a multipart request. */
export async function readUpload(req: FastifyRequest): Promise<{ data: Buffer; fileName: string; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError('UPLOAD_REQUIRED');
  // keyed by the client's field names: no prototype, so `__proto__` is a field like any other (not dropped)
  const fields: Record<string, string> = Object.create(null);
  let file: { data: Buffer; fileName: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer();
          throw new AppError('UPLOAD_FIELD');
        }
        file = { data: await part.toBuffer(), fileName: part.filename };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('UPLOAD_TOO_LARGE', { max: MAX_IMPORT_SIZE_LABEL });
    if (code === 'FST_FILES_LIMIT') throw new AppError('UPLOAD_ONE_FILE');
    // @fastify/multipart refuses a field named __proto__ (and similar): say so rather than '上传文件异常'
    if (code === 'FST_PROTO_VIOLATION') throw new AppError('UPLOAD_FIELD_NAME');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('UPLOAD_REQUIRED');
    throw new AppError('UPLOAD_FAILED');
  }
  if (!file || file.data.length === 0) throw new AppError('UPLOAD_REQUIRED');
  return { ...file, fields };
}
