import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, createCompany, createStaff, idCard } from './dispatch-fixtures.ts';

/** Set-up shared by the payroll API suites: a company with staff whose bases make the payroll-rules.md vectors. */

type Json = Record<string, any>;

export function api(app: FastifyInstance, token: string) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as never }) });
    let body: any = null;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, raw: res };
  };
}
export type Api = ReturnType<typeof api>;

/**
 * The payroll suites' set-up: an app on the test database and an admin caller, opened before the suite's tests
 * (handed to `use`) and closed after them.
 */
export function withAdminApp(use: (s: { t: TestApp; call: Api; token: string }) => void): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    const token = await adminToken(t.app);
    use({ t, token, call: api(t.app, token) });
  });
  afterAll(async () => {
    await t?.close();
  });
}

let personSeq = 100;
/** A fresh valid ID card per call. */
export function nextIdCard(): string {
  personSeq += 2;
  return idCard('1988-05-17', personSeq);
}

/** Staff whose every base is `base` yuan, personal rates 8% / 2%+3 / 0.5% / HF 12% (the seeded ones). */
export function vectorStaff(base: number, over: Json = {}): Json {
  return {
    staffName: '王五',
    idCard: nextIdCard(),
    salary: base,
    deduct: 0,
    gjjBase: base,
    yanglaoBase: base,
    yiliaoBase: base,
    yiliaoBaseSelf: base,
    shiyeBase: base,
    gongshangBase: base,
    shengyuBase: base,
    ...over,
  };
}

export async function companyWithStaff(app: FastifyInstance, token: string, staff: Json[], company: Json = {}): Promise<{ company: Json; staff: Json[] }> {
  const c = await createCompany(app, token, company);
  const created: Json[] = [];
  for (const s of staff) created.push(await createStaff(app, token, c.id, s));
  return { company: c, staff: created };
}

/** The month's rows through the list API (sorted by id). */
export async function salaryRows(call: Api, companyId: number, month: string): Promise<Json[]> {
  const r = await call('GET', `/api/accountsSalary?companyId=${companyId}&month=${month}&size=1000&sort=id,asc`);
  if (r.status !== 200) throw new Error(`list: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.content;
}

/** Generate, optionally adjust, calculate and confirm one month; returns the rows after confirmation. */
export async function runMonth(
  call: Api,
  companyId: number,
  month: string,
  adjust: (rows: Json[]) => { id: number; jiaban?: number; koukuan?: number }[] = () => [],
): Promise<Json[]> {
  const expectOk = (r: { status: number; body: any }, what: string) => {
    if (r.status !== 200 && r.status !== 204) throw new Error(`${what} ${month}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  expectOk(await call('POST', '/api/accountsSalary/generator', { companyId, month }), 'generate');
  for (const edit of adjust(await salaryRows(call, companyId, month))) expectOk(await call('PUT', '/api/accountsSalary', edit), 'edit');
  expectOk(await call('POST', '/api/accountsSalary/calculate', { companyId, month }), 'calculate');
  // the suites that run months to build a ledger confirm over the calculation's open items (unrecorded months of
  // a mid-year hire, say) as a clerk ticking 我已核对 would; payroll-calculation-report.test.ts tests the guard
  expectOk(await call('POST', '/api/accountsSalary/confirm', { companyId, month, companyName: 'x', acknowledgeWarnings: true }), 'confirm');
  return salaryRows(call, companyId, month);
}
