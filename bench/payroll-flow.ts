/**
 * Salary flow over HTTP on a real database: one client company with 10,000 staff.
 * - generate, calculate and confirm one month (January, no history): target <= 3 s each;
 * - January..November through the whole flow, then calculate December with eleven confirmed months behind it
 *   (the ledger query reads 110,000 confirmed rows): target <= 5 s.
 * SQLite (temporary file, WAL) always; PostgreSQL too when BENCH_PG_URL is set (a throwaway schema);
 * MariaDB/MySQL when BENCH_MYSQL_URL is set (a throwaway database).
 * Run: node --import tsx bench/payroll-flow.ts   (STAFF=2000 for a quicker run)
 */
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { idCardCheckDigit } from '../packages/shared/src/idcard.ts';
import { staffExtraResource } from '../packages/shared/src/resources/staffExtra.ts';
import { staffResource } from '../packages/shared/src/resources/staff.ts';
import { columnOf } from '../packages/shared/src/resource/index.ts';
import { buildApp } from '../apps/server/src/app.ts';
import type { AppConfig } from '../apps/server/src/config.ts';
import { keysFromPem } from '../apps/server/src/core/auth/keys.ts';
import { signToken } from '../apps/server/src/core/auth/tokens.ts';
import { openCache } from '../apps/server/src/core/cache.ts';
import { insertReturningId, nowIso, } from '../apps/server/src/core/db.ts';
import { LoggingMailSender } from '../apps/server/src/core/mail.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';

const STAFF = Number(process.env.STAFF ?? 10_000);
const YEAR = '2025';

const col = (def: { fields: { name: string; column?: string }[] }, name: string) => columnOf(def.fields.find((f) => f.name === name) as never);

function openBenchDb(kind: 'sqlite' | 'postgres' | 'mysql') {
  return openThrowawayDatabase(kind, kind === 'postgres' ? process.env.BENCH_PG_URL : process.env.BENCH_MYSQL_URL);
}

async function run(kind: 'sqlite' | 'postgres' | 'mysql') {
  const { database, drop } = await openBenchDb(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-bench-data-'));
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    dbUrl: 'bench',
    cachePrefix: 'bench:',
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
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = keysFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), crypto.randomBytes(32));
  const app = await buildApp(config, { database, cache: await openCache(undefined, 'bench:'), keys, mail: new LoggingMailSender(() => undefined) });
  const { db, dialect } = app.ctx;
  try {
    await seedDatabase(db, dialect, { adminPassword: undefined, production: false });
    await app.ready();
    const admin = await db.selectFrom('sys_user').select(['id', 'token_version']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const headers = { authorization: `Bearer ${signToken(keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600).token}` };
    const call = async (method: 'POST' | 'GET' | 'PUT', url: string, payload?: unknown) => {
      const t0 = performance.now();
      const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as never }) });
      const ms = performance.now() - t0;
      if (res.statusCode >= 300) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { ms, body: res.body };
    };

    // a January rate version (the seeded one takes effect in 2025-07): exercises the versioned dictionaries
    const base = await db.selectFrom('sys_dict').select('id').where('name', '=', 'bencheng').executeTakeFirstOrThrow();
    const entries = await db.selectFrom('sys_dict_detail').select(['label', 'value', 'sort']).where('dict_id', '=', base.id).execute();
    const v = await insertReturningId(db, dialect, 'sys_dict', { name: `bencheng@${YEAR}-01`, remark: 'bench', create_time: nowIso() });
    const older: Record<string, string> = { baseFloor: '6821', baseCeiling: '35283', effectiveMonth: `${YEAR}-01` };
    await db
      .insertInto('sys_dict_detail')
      .values(entries.map((e) => ({ dict_id: v, label: e.label, value: older[String(e.label)] ?? e.value, sort: e.sort, create_time: nowIso() })))
      .execute();

    const company = JSON.parse(
      (
        await call('POST', '/api/accountsCompany', {
          companyName: '基准测试单位',
          serviceType: '劳务派遣',
          feeType: '按人头',
          fee: 100,
          disabledPay: 0,
          dispatchCompany: '北京华派人力资源有限公司',
          gjjBase: 8000,
          yanglaoBase: 8000,
          yilaoBase: 8000,
          shiyeBase: 8000,
          gongshangBase: 8000,
          shengyuBase: 8000,
        })
      ).body,
    );
    const t0 = performance.now();
    const S = (n: string) => col(staffResource, n);
    const staffRows = Array.from({ length: STAFF }, (_, i) => {
      const first17 = `110101${1960 + Math.floor(i / 1000)}0101${String(i % 1000).padStart(3, '0')}`;
      const id = first17 + idCardCheckDigit(first17);
      const salary = 500_000 + (i % 300) * 10_000; // 5,000 .. 34,900 yuan
      return {
        [S('companyId')]: company.id,
        [S('companyName')]: company.companyName,
        [S('staffName')]: `员工${i}`,
        [S('idCard')]: id,
        [S('censusType')]: 'bencheng',
        [S('jobState')]: '在职',
        [S('salary')]: salary,
        [S('taxesType')]: '工资薪金',
        [S('insureType')]: '五险一金',
        [S('deduct')]: (i % 3) * 100_000,
        [S('gjjBase')]: salary,
        [S('gjjRatio')]: 0.12,
        [S('yanglaoBase')]: salary,
        [S('yanglaoRatioCompany')]: 0.16,
        [S('yanglaoRatioSelf')]: 0.08,
        [S('yiliaoBase')]: salary,
        [S('yiliaoBaseSelf')]: salary,
        [S('yiliaoRatioCompany')]: 0.098,
        [S('yiliaoRatioSelf')]: 0.02,
        [S('shiyeBase')]: salary,
        [S('shiyeRatioCompany')]: 0.005,
        [S('shiyeRatioSelf')]: 0.005,
        [S('gongshangBase')]: salary,
        [S('gongshangRatioCompany')]: 0.004,
        [S('shengyuBase')]: salary,
        [S('shengyuRatioCompany')]: 0,
        [S('createTime')]: nowIso(),
      };
    });
    for (let i = 0; i < staffRows.length; i += 500) await db.insertInto(staffResource.table).values(staffRows.slice(i, i + 500)).execute();
    // overtime for every fifth staff member in every month
    const E = (n: string) => col(staffExtraResource, n);
    const extras = [];
    for (let m = 1; m <= 12; m++) {
      for (let i = 0; i < STAFF; i += 5) {
        extras.push({ [E('staffIdCard')]: staffRows[i][S('idCard')], [E('staffCompanyId')]: company.id, [E('month')]: `${YEAR}-${String(m).padStart(2, '0')}`, [E('jiaban')]: 50_000, [E('koukuan')]: 1_000 });
      }
    }
    for (let i = 0; i < extras.length; i += 1000) await db.insertInto(staffExtraResource.table).values(extras.slice(i, i + 1000)).execute();
    console.log(`[${kind}] set-up: ${STAFF} staff, ${extras.length} overtime rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const times: Record<'generate' | 'calculate' | 'confirm', number[]> = { generate: [], calculate: [], confirm: [] };
    for (let m = 1; m <= 12; m++) {
      const month = `${YEAR}-${String(m).padStart(2, '0')}`;
      times.generate.push((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).ms);
      times.calculate.push((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).ms);
      if (m === 12) {
        const row = await db.selectFrom('accounts_salary').select('id').where('company_id', '=', company.id).where('month', '=', month).orderBy('id').executeTakeFirstOrThrow();
        const edit = await call('PUT', '/api/accountsSalary', { id: row.id, jiaban: 1234.56, koukuan: 0 });
        console.log(`[${kind}] December inline edit (one row, recalculated against 11 months): ${edit.ms.toFixed(0)} ms`);
        const report = await call('POST', '/api/export/accountsSalary', { companyId: company.id, month, cname: '系统管理员' });
        console.log(`[${kind}] December salary report export (${STAFF} rows): ${report.ms.toFixed(0)} ms`);
      }
      times.confirm.push((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month })).ms);
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const verdict = (ms: number, target: number) => (ms <= target * 1000 ? 'OK' : 'OVER TARGET');
    for (const step of ['generate', 'calculate', 'confirm'] as const) {
      const jan = times[step][0];
      console.log(`[${kind}] ${step.padEnd(9)} January: ${s(jan)} (target <= 3 s: ${verdict(jan, 3)}); Feb-Nov max ${s(Math.max(...times[step].slice(1, 11)))}`);
    }
    const dec = times.calculate[11];
    console.log(`[${kind}] calculate December with 11 confirmed months: ${s(dec)} (target <= 5 s: ${verdict(dec, 5)}); confirm December: ${s(times.confirm[11])}`);
    const check = await db
      .selectFrom('accounts_salary')
      .select((eb) => [eb.fn.sum('tax').as('tax'), eb.fn.sum('real_salary').as('net'), eb.fn.countAll().as('n')])
      .where('company_id', '=', company.id)
      .executeTakeFirstOrThrow();
    console.log(`[${kind}] year totals: ${check.n} rows, tax ${Number(check.tax) / 100} yuan, net ${Number(check.net) / 100} yuan`);
  } finally {
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await run('sqlite');
if (process.env.BENCH_PG_URL) await run('postgres');
else console.log('(set BENCH_PG_URL=postgres://... to run on PostgreSQL too)');
if (process.env.BENCH_MYSQL_URL) await run('mysql');
