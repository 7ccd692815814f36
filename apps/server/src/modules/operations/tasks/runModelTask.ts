import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { salaryResource } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import { loadCurrentUser } from '../../../core/auth/currentUser.ts';
import { nowIso } from '../../../core/db.ts';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { renderFor } from '../../../core/errorLanguage.ts';
import { AppError } from '../../../core/errors.ts';
import { streamXlsx } from '../../../core/excel/xlsxStream.ts';
import type { XlsxCellKind } from '../../../core/excel/writeXlsx.ts';
import type { RunContext, RunResult } from '../../../core/scheduler/index.ts';
import type { ObjectStore } from '../../../core/storage/index.ts';
import { loadRateBook, RateError } from '../../payroll/rates.ts';
import { builtinOf, coerceTaskParameters } from '../models/catalogue.ts';
import { callExternalModel } from '../models/external.ts';
import { externalPolicy, findModel, ON_SHELF } from '../models/modelStore.ts';
import type { CensusLimits, ModelInput, ModelResult, OutputCell, OutputFile, Row } from '../models/types.ts';
import { openSourceAsOwner } from './ownerRead.ts';
import { findTask, TASK_STATE } from './taskStore.ts';

/** Today in China (YYYY-MM-DD) and a compact time for group names. */
export function chinaNow(d = new Date()): { day: string; stamp: string } {
  const iso = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return { day: iso.slice(0, 10), stamp: iso.slice(0, 19).replace(/[-:T]/g, '') };
}

/**
 * Office models read the datasets by their API names (staffName, contractEnd...); a custom source may carry the
 * Chinese labels as column names instead (姓名, 合同结束), as may a CSV exported from our screens. Rename those.
 */
function canonicalNames(fields: string[]): Map<string, string> {
  const byLabel = new Map<string, string>();
  for (const def of [staffResource, salaryResource]) for (const f of def.fields) if (!byLabel.has(f.label)) byLabel.set(f.label, f.name);
  const present = new Set(fields);
  const rename = new Map<string, string>();
  for (const f of fields) {
    const api = byLabel.get(f);
    if (api && !present.has(api)) rename.set(f, api);
  }
  return rename;
}

async function* renamed(rows: AsyncIterable<Row>, rename: Map<string, string>): AsyncGenerator<Row> {
  for await (const row of rows) {
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) out[rename.get(k) ?? k] = v;
    yield out;
  }
}

/** Census limits from the rate dictionaries in force in a month (fen), for 社保基数越界检查. */
function censusLimitsLoader(app: FastifyInstance): NonNullable<ModelInput['censusLimits']> {
  return async (month, censusTypes) => {
    const book = await loadRateBook(app.ctx.db, month, censusTypes);
    const out = new Map<string, CensusLimits | CodedMessage>();
    for (const [census, v] of book) {
      if (v instanceof RateError) {
        out.set(census, v.reason);
        continue;
      }
      const r = v.rates;
      const lim = (x: { floor?: number | null; ceiling?: number | null } | undefined): [number | null, number | null] => [x?.floor ?? null, x?.ceiling ?? null];
      out.set(census, {
        bases: { yanglaoBase: lim(r.yanglao), yiliaoBase: lim(r.yiliao), shiyeBase: lim(r.shiye), gjjBase: lim(r.gongjijin), gongshangBase: lim(r.gongshang), shengyuBase: lim(r.shengyu) },
        ratios: Object.fromEntries(Object.entries(v.ratios).filter(([, x]) => x !== undefined)) as Record<string, string>,
      });
    }
    return out;
  };
}

/** A cell as written: a finding (a catalogue message) as its Chinese text, any other value as it is. */
const cellOf = (cell: OutputCell) => (cell !== null && typeof cell === 'object' ? renderFor(cell.code, 'zh', cell.params) : cell);

const KIND_OF: Record<string, XlsxCellKind> = { text: 'text', int: 'int', number: 'number', money: 'money', date: 'date' };

/** Write one output workbook to `store` (streamed: the workbook is never whole in memory). */
async function storeWorkbook(app: FastifyInstance, store: ObjectStore, file: OutputFile): Promise<{ key: string; bytes: number }> {
  const key = app.storage.newKey('modelOutput', '.xlsx');
  const pass = new PassThrough();
  let bytes = 0;
  pass.on('data', (c: Buffer) => {
    bytes += c.length;
  });
  const counted = new PassThrough();
  pass.pipe(counted);
  // a finding is rendered in Chinese: the task runs on a schedule with no request to take a language from, and
  // the workbook's headers and names are the office's Chinese
  const columns = file.sheet.columns.map((header, i) => ({
    header,
    value: (row: OutputCell[]) => cellOf(row[i]),
    kind: file.sheet.kinds?.[i] ? KIND_OF[file.sheet.kinds[i]] : undefined,
  }));
  // whichever side fails first stops the other: a store that gave up must not leave the writer waiting for
  // room, and a writer that failed must not leave the store waiting for the rest of the file
  // (the failure is the one Promise.all reports; these listeners keep a second report from going unheard)
  pass.on('error', () => undefined);
  counted.on('error', () => undefined);
  const [stored] = await Promise.all([
    store.put(key, counted, { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }).catch((err: unknown) => {
      pass.destroy();
      throw err;
    }),
    streamXlsx(pass, { fileName: file.name, sheetName: file.sheet.name, columns, rows: file.sheet.rows }).catch((err: unknown) => {
      counted.destroy(err as Error);
      throw err;
    }),
  ]);
  return { key: stored.key, bytes: stored.size || bytes };
}

/** Rows that never fit a request to an external model are refused before reading everything (rough cap). */
const EXTERNAL_MAX_ROWS = 500_000;

/**
 * One run of a model task (handler `modelTask.run`): read the data source as the task owner sees it, compute the
 * model, write its workbooks into a new group of model data, keep the traits for the dashboard. Progress phases
 * follow design §2.5: 读取数据 (0.05-0.6), 模型计算中, 写出文件 n/m (0.85-0.99).
 */
export async function runModelTask(app: FastifyInstance, ctx: RunContext): Promise<RunResult> {
  const taskId = Number(ctx.params.taskId);
  const task = await findTask(app, taskId);
  const db = app.ctx.db;
  const started = nowIso();
  await db.updateTable('model_task').set({ is_pause: TASK_STATE.running, last_run_at: started }).where('id', '=', taskId).execute();
  await ctx.progress('读取数据 0 条', 0.05);

  const model = await findModel(app, task.modelId).catch(() => {
    throw new AppError('TASK_MODEL_REQUIRED');
  });
  if (model.statu !== ON_SHELF) throw new AppError('MODEL_OFF_SHELF');
  const owner = await loadCurrentUser(db, task.ownerId);
  if (!owner?.enabled) throw new AppError('TASK_OWNER_DISABLED');
  const reader = await openSourceAsOwner(app, task.id, task.dataId, { ...owner, tokenJti: '', tokenExp: 0 }, ctx.signal);
  const { day } = chinaNow();
  const property = typeof task.params.properties === 'string' && task.params.properties ? task.params.properties : null;
  const params = coerceTaskParameters(model.parameterInfo, task.params);
  let lastReport = 0;
  const onRows = async (n: number) => {
    if (Date.now() - lastReport < 1000) return;
    lastReport = Date.now();
    await ctx.progress(`读取数据 ${n} 条`, Math.min(0.6, 0.05 + 0.55 * (n / (n + 20_000))));
  };
  let result: ModelResult;
  try {
    const builtin = builtinOf(model.site);
    if (builtin) {
      const rename = builtin.requires ? canonicalNames(reader.fields) : new Map<string, string>();
      const fields = reader.fields.map((f) => rename.get(f) ?? f);
      result = await builtin.run({
        fields,
        rows: rename.size ? renamed(reader.rows, rename) : reader.rows,
        params,
        property,
        today: day,
        signal: ctx.signal,
        onRows,
        censusLimits: censusLimitsLoader(app),
      });
    } else {
      const rows: unknown[][] = [];
      for await (const row of reader.rows) {
        if (rows.length >= EXTERNAL_MAX_ROWS) throw new AppError('MODEL_REQUEST_TOO_LARGE', { max: { code: 'MODEL_ROWS_MAX', params: { count: EXTERNAL_MAX_ROWS } } });
        rows.push(reader.fields.map((f) => row[f] ?? null));
        if (rows.length % 5000 === 0) await onRows(rows.length);
      }
      await ctx.progress('模型计算中', 0.6);
      result = await callExternalModel(
        {
          site: model.site,
          fileType: model.fileType,
          secret: model.secretEnc ? app.ctx.secrets.open(model.secretEnc) : '',
          modelName: model.modelName,
          parameters: params,
          property,
          columns: reader.fields,
          rows,
          taskId: String(task.id),
          runId: crypto.randomUUID(),
          signal: ctx.signal,
        },
        externalPolicy(app),
      );
    }
  } finally {
    await reader.close();
  }
  await ctx.progress('模型计算中', 0.85);

  // one group per run; files written first, rows recorded after, so a failed run leaves no half group listed
  // (a second run within the same second, e.g. 开始 right after a cron fire, gets _2, _3: groups never merge;
  // one task never runs twice at once, so the check cannot race with itself)
  const baseGroup = `${task.jobName}_${chinaNow().stamp}`;
  let groupName = baseGroup;
  for (let n = 2; await db.selectFrom('model_output').select('id').where('group_name', '=', groupName).limit(1).executeTakeFirst(); n++) groupName = `${baseGroup}_${n}`;
  const written: { file: OutputFile; key: string; bytes: number }[] = [];
  // one store for the whole group, recorded on each row: a later switch of the storage configuration must not
  // orphan these files (preview, all.zip and retention read the row's own store)
  const ref = await app.storage.activeRef();
  const store = await app.storage.storeFor(ref);
  try {
    for (const [i, file] of result.files.entries()) {
      ctx.signal.throwIfAborted();
      await ctx.progress(`写出文件 ${i + 1}/${result.files.length}`, 0.85 + (0.14 * i) / Math.max(result.files.length, 1));
      written.push({ file, ...(await storeWorkbook(app, store, file)) });
    }
  } catch (err) {
    await store.delete(written.map((w) => w.key)).catch(() => undefined);
    throw err;
  }
  const now = nowIso();
  const usedNames = new Map<string, number>();
  if (written.length) {
    await db
      .insertInto('model_output')
      .values(
        written.map((w) => {
          // two files of one run with the same name would collide inside all.zip
          const n = (usedNames.get(w.file.name) ?? 0) + 1;
          usedNames.set(w.file.name, n);
          return {
            task_id: task.id,
            task_name: task.jobName,
            output_kind: model.outputKind,
            model_title: model.modelName,
            group_name: groupName,
            file_name: `${n > 1 ? `${w.file.name}(${n})` : w.file.name}.xlsx`,
            storage_key: w.key,
            rows_out: w.file.sheet.rows.length,
            bytes: w.bytes,
            owner_dept_id: task.ownerDeptId,
            provider: ref.provider,
            bucket: ref.bucket,
            type: ref.type,
            create_time: now,
          };
        }),
      )
      .execute();
  }
  await db.updateTable('model_task').set({ last_traits: JSON.stringify(result.traits.slice(0, 10)) }).where('id', '=', task.id).execute();
  const outputCount = result.files.reduce((a, f) => a + f.sheet.rows.length, 0);
  await ctx.progress(`完成：产出 ${written.length} 个文件`, 1);
  return { summary: `读取 ${result.rowsIn} 条，产出 ${written.length} 个文件 ${outputCount} 行，分组 ${groupName}`, outputCount, calcCount: result.rowsIn };
}
