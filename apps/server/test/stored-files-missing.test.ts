import Fastify from 'fastify';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { sendXlsxStream, xlsxBuffer } from '../src/core/excel/xlsxStream.ts';
import { readZipDirectory, readZipEntry } from '../src/core/excel/zip.ts';
import { AppError } from '../src/core/errors.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { multipart, png } from './storageFixtures.ts';

/**
 * M1: no request can end the process. Every route that streams a stored file or builds a zip is walked with its
 * stored object removed from the local store (the file deleted under DATA_DIR), or failing while it is read. An
 * unhandled 'error' event on a stream would end vitest's worker (or reach the uncaughtException spy below); each
 * case also checks that the next request is still answered.
 */
let t: TestApp;
let auth: Record<string, string>;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  t = await createTestApp();
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await t.close();
});

const fileOf = (key: string) => path.join(t.config.dataDir, 'storage', key);

/** A model output as a run writes it: the workbook in the active store, its row in model_output. */
async function storeOutput(group: string, name: string, rows: unknown[][] = [['张三', 1]]) {
  const body = await xlsxBuffer({ fileName: name, columns: [{ header: '姓名' }, { header: '数量', kind: 'int' }], rows: rows.map((r) => ({ 姓名: r[0], 数量: r[1] })) as never });
  const key = t.app.storage.newKey('modelOutput', '.xlsx');
  await (await t.app.storage.active()).put(key, body, { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  await t.app.ctx.db
    .insertInto('model_output')
    .values({ task_id: 0, task_name: '测试任务', output_kind: 'xls', model_title: '测试', group_name: group, file_name: `${name}.xlsx`, storage_key: key, rows_out: rows.length, bytes: body.length, owner_dept_id: null, create_time: nowIso() } as never)
    .execute();
  const row = await t.app.ctx.db.selectFrom('model_output').select('id').where('storage_key', '=', key).executeTakeFirstOrThrow();
  return { id: Number(row.id), key, body };
}

/** The entries of a zip in their order, with their bytes. */
function readZip(buf: Buffer): { name: string; data: Buffer }[] {
  return [...readZipDirectory(buf).values()].map((e) => ({ name: e.name, data: readZipEntry(buf, e) }));
}

const zipOf = (groups: string[]) => t.app.inject({ method: 'POST', url: '/dataManagement/outPutData', headers: auth, payload: { groupName: groups } });

/** The server still answers after the failure (a crashed worker would not). */
async function stillServing() {
  const res = await t.app.inject({ method: 'GET', url: '/dataManagement/groupList', headers: auth });
  expect(res.statusCode).toBe(200);
  expect(uncaught).toEqual([]);
}

describe(`a missing or unreadable stored file never ends the process (${TEST_DB})`, () => {
  it('all.zip with a missing output answers a JSON 404 naming the file before streaming anything', async () => {
    await storeOutput('完整组', '甲');
    const gone = await storeOutput('缺文件组', '乙');
    await storeOutput('缺文件组', '丙');
    await fsp.rm(fileOf(gone.key));
    const res = await zipOf(['完整组', '缺文件组']);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json().message).toContain('缺文件组/乙.xlsx');
    await stillServing();
    // the intact group alone still downloads
    const ok = await zipOf(['完整组']);
    expect(ok.statusCode).toBe(200);
    expect(readZip(ok.rawPayload).map((e) => e.name)).toEqual(['完整组/甲.xlsx']);
  });

  it('all.zip leaves out a file that vanishes after the check, with a note file in the zip', async () => {
    const a = await storeOutput('竞态组', '一');
    const b = await storeOutput('竞态组', '二');
    const local = t.app.storage.local;
    const realGet = local.get.bind(local);
    // the object passes the existence check, then disappears before its turn in the zip
    const spy = vi.spyOn(local, 'get').mockImplementation(async (key: string) => {
      if (key === b.key) throw new AppError('STORAGE_OBJECT_MISSING', {});
      return realGet(key);
    });
    try {
      const res = await zipOf(['竞态组']);
      expect(res.statusCode).toBe(200);
      const entries = readZip(res.rawPayload);
      expect(entries.map((e) => e.name)).toEqual(['竞态组/一.xlsx', '未能导出的文件.txt']);
      const note = entries[1].data.toString('utf8');
      expect(note).toContain('竞态组/二.xlsx');
      expect(entries[0].data.equals(a.body)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    await stillServing();
  });

  it('all.zip whose stored file breaks while it is read aborts that download only', async () => {
    const a = await storeOutput('读错组', '坏');
    const spy = vi.spyOn(t.app.storage.local, 'get').mockImplementation(async () => {
      // some bytes, then a read error (a disk or a bucket connection failing mid-file)
      let sent = false;
      return new Readable({
        read() {
          if (sent) return;
          sent = true;
          this.push(a.body.subarray(0, 100));
          setTimeout(() => this.destroy(new Error('EIO: i/o error, read')), 5);
        },
      });
    });
    try {
      const res = await zipOf(['读错组']).catch((err: Error) => err);
      // the headers may already be out: the connection is cut, the zip is never whole
      if (!(res instanceof Error)) expect(() => readZip(res.rawPayload)).toThrow();
    } finally {
      spy.mockRestore();
    }
    await stillServing();
  });

  it('the model-data preview of a missing output is a JSON 404', async () => {
    const gone = await storeOutput('预览组', '丁');
    await fsp.rm(fileOf(gone.key));
    const res = await t.app.inject({ method: 'GET', url: `/dataManagement/customsDataDetails?id=${gone.id}`, headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBeTruthy();
    await stillServing();
  });

  it('the storage screen’s signed download link of a deleted file is a JSON 404', async () => {
    const up = multipart('合同.pdf', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1'));
    const saved = await t.app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...auth, ...up.headers }, payload: up.payload });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().id as number;
    const row = await t.app.ctx.db.selectFrom('tool_storage_file').select('object_key').where('id', '=', id).executeTakeFirstOrThrow();
    const link = (await t.app.inject({ method: 'GET', url: `/api/qiNiuContent/download/${id}`, headers: auth })).json().url as string;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    await fsp.rm(fileOf(String(row.object_key)));
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    await stillServing();
  });

  it('a picture and an avatar whose files are gone are JSON 404s', async () => {
    const up = multipart('图.png', png(4, 4));
    const saved = await t.app.inject({ method: 'POST', url: '/api/pictures', headers: { ...auth, ...up.headers }, payload: up.payload });
    expect(saved.statusCode, saved.body).toBe(201);
    const pic = await t.app.ctx.db.selectFrom('tool_picture').select('object_key').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const url = `/api/storage/public/${pic.object_key}`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    await fsp.rm(fileOf(String(pic.object_key)));
    const picture = await t.app.inject({ method: 'GET', url });
    expect(picture.statusCode).toBe(404);
    expect(picture.headers['content-type']).toMatch(/application\/json/);

    const av = multipart('me.png', png(8, 8));
    const changed = await t.app.inject({ method: 'POST', url: '/api/users/updateAvatar', headers: { ...auth, ...av.headers }, payload: av.payload });
    expect(changed.statusCode, changed.body).toBe(200);
    const name = changed.json().avatar as string;
    expect((await t.app.inject({ method: 'GET', url: `/avatar/${name}` })).statusCode).toBe(200);
    await fsp.rm(fileOf(`avatar/${name}`));
    const avatar = await t.app.inject({ method: 'GET', url: `/avatar/${name}` });
    expect(avatar.statusCode).toBe(404);
    expect(avatar.headers['content-type']).toMatch(/application\/json/);
    await stillServing();
  });

  it('a file data source whose upload is gone previews with the reason', async () => {
    const up = multipart('名单.csv', Buffer.from('姓名,金额\n张三,1\n'));
    const uploaded = await t.app.inject({ method: 'POST', url: '/algorithm/dataOrigin/uploadFile', headers: { ...auth, ...up.headers }, payload: up.payload });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const saved = await t.app.inject({ method: 'POST', url: '/dataOrigin/save', headers: auth, payload: { dataName: '名单', type: 'csv', characterEncoding: 'UTF-8', url: uploaded.json().path } });
    expect(saved.statusCode, saved.body).toBe(201);
    const source = await t.app.ctx.db.selectFrom('data_origin').select(['id', 'file_key']).where('id', '=', saved.json().id).executeTakeFirstOrThrow();
    await fsp.rm(fileOf(String(source.file_key)));
    const res = await t.app.inject({ method: 'GET', url: `/dataOrigin/details?id=${source.id}`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().pvError).toBeTruthy();
    await stillServing();
  });

  it('a streamed export whose rows fail before the reply is under way answers a JSON error', async () => {
    // The workbook stream is handed to the reply before its first row is read, and Fastify listens to it only
    // after the onSend hooks (async ones, like the app's). A slow hook and a failing first row reproduce the
    // window in which an 'error' event had no listener.
    const mini = Fastify();
    mini.addHook('onSend', async () => {
      await new Promise((r) => setTimeout(r, 300));
    });
    mini.get('/x', async (_req, reply) => {
      async function* rows(): AsyncGenerator<Record<string, unknown>> {
        yield* [];
        throw new Error('database went away');
      }
      return sendXlsxStream(reply, { fileName: '导出', columns: [{ header: '姓名', key: 'name' }], rows: rows() });
    });
    try {
      const res = await mini.inject({ method: 'GET', url: '/x' }).catch((err: Error) => err);
      // normally the failure comes while the hook still waits: a JSON 500; on a very slow machine the first
      // bytes may already be out, and then the download is cut (inject rejects). Never an unhandled error.
      if (!(res instanceof Error)) {
        expect(res.statusCode).toBe(500);
        expect(res.headers['content-type']).toMatch(/application\/json/);
      } else expect(res.message).toContain('destroyed');
      expect((await mini.inject({ method: 'GET', url: '/nothing' })).statusCode).toBe(404);
    } finally {
      await mini.close();
    }
    await stillServing();
  });
});
