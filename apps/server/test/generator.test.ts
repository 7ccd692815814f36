import { dynamicDb } from '../src/core/db.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceDef } from '@app/shared/resource/types';
import { staffResource } from '@app/shared/resources/staff';
import { buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { openCache } from '../src/core/cache.ts';
import { LoggingMailSender } from '../src/core/mail.ts';
import { registerResource } from '../src/crud/registerResource.ts';
import { seedDatabase } from '../src/seed/index.ts';
import type { MigrationContext } from '../migrations/index.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';
import { openThrowawayDatabase } from './throwawayDatabase.ts';

/**
 * 系统工具 › 代码生成 on the real database of TEST_DB: introspection, column settings, configuration, the preview
 * and the zip; and the round trip — the definition and migration generated from accounts_staff, written to a
 * temporary folder and imported, create a table and serve list/create/update/delete through registerResource.
 */

let t: TestApp;
let admin: Caller;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
});

interface Column {
  columnName: string;
  columnType: string;
  label: string;
  kind: string;
  columnQuery: string;
  columnShow: boolean;
  notNull: boolean;
  primaryKey: boolean;
  maxLength: number | null;
  stored: boolean;
}
interface Preview {
  tableName: string;
  resourceName: string;
  files: { path: string; language: string; content: string }[];
  warnings: { code: string; value: string }[];
}

describe(`code generator (${TEST_DB})`, () => {
  it('lists the project tables, filtered by name and paged', async () => {
    const all = await admin('GET', '/api/generator/tables?size=500');
    expect(all.statusCode, all.body).toBe(200);
    const names = all.json().content.map((r: { tableName: string }) => r.tableName);
    expect(names).toEqual(expect.arrayContaining(['accounts_staff', 'accounts_company', 'sys_user', 'gen_column', 'gen_config']));
    expect(names).not.toContain('kysely_migration');
    const staff = all.json().content.find((r: { tableName: string }) => r.tableName === 'accounts_staff');
    expect(staff).toMatchObject({ resource: 'accountsStaff', configured: false });
    expect(staff.engine).toBeTruthy();

    const filtered = await admin('GET', '/api/generator/tables?name=ACCOUNTS_&size=2&page=0');
    const body = filtered.json();
    expect(body.content).toHaveLength(2);
    expect(body.totalElements).toBe(names.filter((n: string) => n.includes('accounts_')).length);
    expect(body.totalElements).toBeGreaterThan(2);
    const second = (await admin('GET', '/api/generator/tables?name=accounts_&size=2&page=1')).json();
    expect(second.content[0].tableName).not.toBe(body.content[0].tableName);
    expect((await admin('GET', '/api/generator/tables?page=-1')).statusCode).toBe(400);
  });

  it('reads the columns of accounts_staff with their types and default settings', async () => {
    const res = await admin('GET', '/api/generator/columns?tableName=accounts_staff');
    expect(res.statusCode, res.body).toBe(200);
    const cols = res.json().content as Column[];
    const by = (n: string) => cols.find((c) => c.columnName === n)!;
    expect(cols[0].columnName).toBe('id');
    expect(by('id')).toMatchObject({ primaryKey: true, kind: 'int' });
    expect(by('staff_name')).toMatchObject({ label: staffResource.fields.find((f) => f.name === 'staffName')?.label, kind: 'string', maxLength: 50, notNull: true });
    expect(by('staff_name').columnType).toMatch(/varchar|character varying/);
    expect(by('id_card')).toMatchObject({ kind: 'idCard', maxLength: 18 });
    expect(by('salary')).toMatchObject({ kind: 'money' });
    expect(by('salary').columnType).toMatch(/bigint/);
    expect(by('born')).toMatchObject({ kind: 'date' });
    expect(by('age')).toMatchObject({ kind: 'int' });
    expect(by('create_time')).toMatchObject({ kind: 'datetime' });
    // a dictionary field of the shipped definition keeps its dictionary
    expect(by('census_type')).toMatchObject({ kind: 'dict' });
  });

  it('refuses a table that is not in the database, without building SQL from it', async () => {
    for (const name of ['no_such_table', "accounts_staff'; drop table sys_user; --", 'ACCOUNTS_STAFF']) {
      const q = encodeURIComponent(name);
      const cols = await admin('GET', `/api/generator/columns?tableName=${q}`);
      // an unknown table is a missing resource (E3), not a malformed request
      expect(cols.statusCode, cols.body).toBe(404);
      expect(cols.json().code).toBe('GENERATOR_TABLE_NOT_FOUND');
      expect((await admin('POST', `/api/generator?tableName=${q}&preview=true`, [])).statusCode).toBe(404);
      expect((await admin('PUT', `/api/generator/columns?tableName=${q}`, [])).statusCode).toBe(404);
    }
    expect((await admin('GET', '/api/generator/columns')).json().message).toBe('请选择数据表');
    const unknownColumn = await admin('PUT', '/api/generator/columns?tableName=accounts_staff', [{ columnName: 'nope', columnQuery: '1' }]);
    expect(unknownColumn.statusCode).toBe(400);
    expect(unknownColumn.json().message).toBe('数据表没有该字段: nope');
    expect((await t.app.ctx.db.selectFrom('sys_user').select('id').execute()).length).toBeGreaterThan(0);
  });

  it('stores the column settings of a table', async () => {
    const put = await admin('PUT', '/api/generator/columns?tableName=accounts_staff', [
      { columnName: 'staff_name', columnQuery: '1', label: '姓名' },
      { columnName: 'phone', columnQuery: '2', columnShow: 'false' },
      { columnName: 'nation', dictName: 'nation' },
    ]);
    expect(put.statusCode, put.body).toBe(204);
    const cols = (await admin('GET', '/api/generator/columns?tableName=accounts_staff')).json().content as Column[];
    const by = (n: string) => cols.find((c) => c.columnName === n)!;
    expect(by('staff_name')).toMatchObject({ columnQuery: '1', label: '姓名', stored: true });
    expect(by('phone')).toMatchObject({ columnQuery: '2', columnShow: false });
    expect(by('nation')).toMatchObject({ kind: 'dict' });
    expect(by('salary')).toMatchObject({ kind: 'money', stored: true });
    const bad = await admin('PUT', '/api/generator/columns?tableName=accounts_staff', [{ columnName: 'phone', columnQuery: '3' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('查询方式只能是 1（模糊）、2（精确）或空');
    const tables = (await admin('GET', '/api/generator/tables?name=accounts_staff')).json().content;
    expect(tables.find((r: { tableName: string }) => r.tableName === 'accounts_staff').configured).toBe(true);
  });

  it('reads and saves the generator configuration with the spec messages', async () => {
    const initial = await admin('GET', '/api/genConfig');
    const cfg = initial.json() as Record<string, unknown>;
    expect(cfg).toMatchObject({ author: 'admin', pack: 'packages/shared/src/resources', cover: false });
    const missing = await admin('PUT', '/api/genConfig', { ...cfg, author: ' ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('作者不能为空');
    expect((await admin('PUT', '/api/genConfig', { ...cfg, apiPath: '' })).json().message).toBe('前端Api文件生成路径不能为空');
    expect((await admin('PUT', '/api/genConfig', { ...cfg, pack: '../../etc' })).statusCode).toBe(400);
    const saved = await admin('PUT', '/api/genConfig', { ...cfg, author: '张三', prefix: 'accounts_', menuParent: 'records' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin('GET', '/api/genConfig')).json()).toMatchObject({ author: '张三', prefix: 'accounts_', menuParent: 'records' });
  });

  it('previews the files of accounts_staff and offers them as a zip with their names', async () => {
    const res = await admin('POST', '/api/generator?tableName=accounts_staff&preview=true', [{ columnName: 'company_name', columnQuery: '1' }]);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json() as Preview;
    // prefix accounts_ stripped: resource `staff`
    expect(preview.resourceName).toBe('staff');
    expect(preview.warnings).toContainEqual({ code: 'TABLE_DEFINED', value: 'accountsStaff' });
    const paths = preview.files.map((f) => f.path);
    expect(paths).toContain('packages/shared/src/resources/staff.ts');
    expect(paths.some((p) => /^apps\/server\/migrations\/\d{4}_accounts_staff\.ts$/.test(p))).toBe(true);
    expect(paths).toContain('generated/staff.menu.json');
    expect(paths).toContain('apps/web/src/locales/en/fields.staff.json');
    const definition = preview.files.find((f) => f.path.endsWith('/staff.ts'))!.content;
    expect(definition).toContain("permission: 'STAFF'");
    expect(definition).toContain("{ name: 'salary', kind: 'money', label: '基本工资' }");
    expect(definition).toMatch(/name: 'staffName', kind: 'string', label: '姓名', required: true, maxLength: 50, filter: 'like', search: true/);
    expect(definition).toMatch(/name: 'companyName', kind: 'string', label: '[^']+', maxLength: 100, filter: 'like', search: true/);
    const menu = JSON.parse(preview.files.find((f) => f.path.endsWith('.menu.json'))!.content);
    expect(menu.menu).toMatchObject({ parent: 'records', path: 'staff', component: 'crud/staff' });
    expect(menu.permissions.map((p: { name: string }) => p.name)).toEqual(['STAFF_ALL', 'STAFF_SELECT', 'STAFF_CREATE', 'STAFF_EDIT', 'STAFF_DELETE']);

    const zipped = await admin('POST', '/api/generator?tableName=accounts_staff', []);
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-type']).toBe('application/zip');
    expect(String(zipped.headers['content-disposition'])).toContain("filename*=UTF-8''");
    const zip = await JSZip.loadAsync(zipped.rawPayload);
    const names = Object.keys(zip.files);
    expect(names.sort()).toEqual([...paths].sort());
    // the read-me keeps its Chinese name (UTF-8 flag) and content
    const readme = names.find((n) => n.endsWith('-说明.md'));
    expect(readme).toBe(`${staffResource.label}-说明.md`);
    expect(await zip.file(readme!)!.async('string')).toContain('使用步骤');
  });

  it('needs GENERATOR codes', async () => {
    const reader = await userWithCodes(t, ['GENERATOR_SELECT']);
    expect((await reader.call('GET', '/api/generator/tables')).statusCode).toBe(200);
    expect((await reader.call('GET', '/api/genConfig')).statusCode).toBe(200);
    expect((await reader.call('PUT', '/api/generator/columns?tableName=accounts_staff', [])).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/generator?tableName=accounts_staff&preview=true', [])).statusCode).toBe(403);
    const maker = await userWithCodes(t, ['GENERATOR_CREATE']);
    expect((await maker.call('POST', '/api/generator?tableName=accounts_staff&preview=true', [])).statusCode).toBe(200);
    const other = await userWithCodes(t, ['ACCENTRY_ALL']);
    expect((await other.call('GET', '/api/generator/tables')).statusCode).toBe(403);
    expect((await other.call('GET', '/api/generator/columns?tableName=accounts_staff')).statusCode).toBe(403);
  });
});

// ---- the round trip ---------------------------------------------------------------------------------------------

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const SHARED_TYPES = path.resolve(SERVER_DIR, '../../packages/shared/src/resource/types.ts');

/** Write a generated file where the test can import it, its project imports pointed at the real files. */
function writeImportable(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  const fixed = content
    .replace("'../resource/types.ts'", JSON.stringify(pathToFileURL(SHARED_TYPES).href))
    .replace("'../src/core/tableBuilder.ts'", JSON.stringify(pathToFileURL(path.join(SERVER_DIR, 'src/core/tableBuilder.ts')).href))
    .replace("from 'kysely'", `from ${JSON.stringify(import.meta.resolve('kysely'))}`);
  fs.writeFileSync(file, fixed);
  return file;
}

describe(`generated artefacts round-trip through the resource framework (${TEST_DB})`, () => {
  let b: { app: import('fastify').FastifyInstance; close: () => Promise<void> } | undefined;
  let dir: string;
  afterAll(async () => {
    await b?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the definition of accounts_staff registers on a table made by its migration and serves CRUD', async () => {
    await admin('PUT', '/api/genConfig', { author: 'test', pack: 'packages/shared/src/resources', moduleName: 'apps/server/migrations', path: 'apps/web/src/locales', apiPath: 'generated', prefix: 'accounts_', menuParent: 'records' });
    const preview = (await admin('POST', '/api/generator?tableName=accounts_staff&preview=true', [{ columnName: 'staff_name', columnQuery: '1' }])).json() as Preview;
    // a throwaway table and resource name, so the copy sits beside the shipped accounts_staff
    const rename = (s: string) => s.replaceAll('accounts_staff', 'gen_rt_staff').replaceAll("'staff'", "'genRtStaff'").replaceAll("'STAFF'", "'GENRTSTAFF'");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-rt-'));
    const defFile = writeImportable(dir, 'genRtStaff.ts', rename(preview.files.find((f) => f.path.endsWith('/staff.ts'))!.content));
    const migFile = writeImportable(dir, 'migration.ts', rename(preview.files.find((f) => f.path.includes('/migrations/'))!.content));
    const defModule = (await import(/* @vite-ignore */ pathToFileURL(defFile).href)) as { staffResource: ResourceDef };
    const migration = (await import(/* @vite-ignore */ pathToFileURL(migFile).href)) as { up: (ctx: MigrationContext) => Promise<void> };
    const def = defModule.staffResource;
    expect(def).toMatchObject({ name: 'genRtStaff', table: 'gen_rt_staff', permission: 'GENRTSTAFF' });

    // a second app: migrations, then the generated one, then the generated definition through registerResource
    const url = TEST_DB === 'postgres' ? process.env.TEST_PG_URL : TEST_DB === 'mysql' ? process.env.TEST_MYSQL_URL : undefined;
    const { database, drop } = await openThrowawayDatabase(TEST_DB, url, { sqliteInMemory: true });
    const dataDir = path.join(os.tmpdir(), `dp-gen-${crypto.randomBytes(6).toString('hex')}`);
    const config: AppConfig = {
      port: 0,
      host: '127.0.0.1',
      dbUrl: 'test',
      cachePrefix: `test:${crypto.randomBytes(6).toString('hex')}:`,
      captchaEnabled: false,
      demoData: false,
      dataDir,
      production: false,
      tokenTtlSeconds: 3600,
      rememberMeTtlSeconds: 3600,
      loginRateLimitPerMinute: 1000,
      logRequests: false,
      scheduler: false,
    };
    const cache = await openCache(undefined, config.cachePrefix);
    const app = await buildApp(config, { database, cache, mail: new LoggingMailSender(() => undefined) });
    b = {
      app,
      close: async () => {
        await app.close();
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    await migration.up({ db: app.ctx.db, dialect: app.ctx.dialect });
    // run twice: the second run finds the table and leaves it alone
    await migration.up({ db: app.ctx.db, dialect: app.ctx.dialect });
    registerResource(app, def);
    await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
    await app.ready();
    const token = await login(app, 'admin', DEV_ADMIN_PASSWORD);
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as never }) });

    const row = { companyId: 1, staffName: '王小明', idCard: '11010519491231002X', salary: 8500.5, born: '1949-12-31', phone: '13800138000', censusType: '本城' };
    const created = await call('POST', '/api/genRtStaff', row);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ staffName: '王小明', salary: 8500.5, born: '1949-12-31' });
    // money is fen in the table
    const stored = await dynamicDb(app.ctx.db).selectFrom('gen_rt_staff').select(['salary', 'staff_name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(stored.salary)).toBe(850050);
    // the generated rules hold: staff name required, ID card checked
    expect((await call('POST', '/api/genRtStaff', { ...row, staffName: '' })).statusCode).toBe(400);
    expect((await call('POST', '/api/genRtStaff', { ...row, idCard: '123' })).statusCode).toBe(400);

    expect((await call('PUT', '/api/genRtStaff', { ...row, id, salary: 9000 })).statusCode).toBe(204);
    const list = await call('GET', '/api/genRtStaff?staffName=小明');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ totalElements: 1, content: [{ id, staffName: '王小明', salary: 9000 }] });
    expect((await call('GET', '/api/genRtStaff?staffName=李')).json().totalElements).toBe(0);
    expect((await call('DELETE', `/api/genRtStaff/${id}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/genRtStaff')).json().totalElements).toBe(0);
  });
});
