import type { FastifyInstance } from 'fastify';
import * as XLSX from '@e965/xlsx';
import { idCardCheckDigit } from '@app/shared/idcard';
import { bearer, DEV_ADMIN_PASSWORD, login } from './helpers.ts';

/** Test data for the dispatch suites: valid ID cards, complete company and staff bodies, multipart uploads. */

/** A valid 18-digit ID card for a birth date (YYYY-MM-DD) and sequence (odd = male). */
export function idCard(born = '1990-01-01', seq = 1, region = '110101'): string {
  const first17 = `${region}${born.replace(/-/g, '')}${String(seq).padStart(3, '0')}`;
  return first17 + idCardCheckDigit(first17);
}

/** The same number with a wrong check character. */
export function badCheckDigit(id: string): string {
  return id.slice(0, 17) + (id[17] === '0' ? '1' : '0');
}

let seq = 0;
export const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

export function companyBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyName: uniq('测试单位'),
    serviceType: '劳务派遣',
    feeType: '按人头',
    fee: 100,
    disabledPay: 0,
    dispatchCompany: '北京华派人力资源有限公司',
    contact: '王经理',
    phone: '010-88886666',
    email: 'hr@example.com',
    bamk: '中国银行',
    gjjBase: 8000,
    yanglaoBase: 7162,
    yilaoBase: 7162,
    yilaoBaseSelf: 7162,
    shiyeBase: 7162,
    gongshangBase: 7162,
    shengyuBase: 7162,
    ...overrides,
  };
}

export function staffBody(companyId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyId,
    staffName: '张三',
    censusType: 'bencheng',
    idCard: idCard('1990-03-07', 11),
    phone: '13800138000',
    inductionDate: '2024-01-02',
    jobState: '在职',
    salary: 8000.5,
    taxesType: '工资薪金',
    insureType: '五险一金',
    deduct: 1000,
    dispatchDate: '2024-01-02',
    insuredState: '已参保',
    insuredTime: '2024-01-02',
    contractState: '已签订',
    contractType: '固定期限',
    contractStart: '2024-01-02',
    contractEnd: '2027-01-01',
    gjjBase: 8000,
    gjjRatio: 0.12,
    yanglaoBase: 7162,
    yanglaoRatioCompany: 0.16,
    yanglaoRatioSelf: 0.08,
    yiliaoBase: 7162,
    yiliaoBaseSelf: 7162,
    yiliaoRatioCompany: 0.098,
    yiliaoRatioSelf: 0.02,
    shiyeBase: 7162,
    shiyeRatioCompany: 0.005,
    shiyeRatioSelf: 0.005,
    gongshangBase: 7162,
    gongshangRatioCompany: 0.004,
    shengyuBase: 7162,
    shengyuRatioCompany: 0,
    ...overrides,
  };
}

export async function adminToken(app: FastifyInstance): Promise<string> {
  return login(app, 'admin', DEV_ADMIN_PASSWORD);
}

export async function createCompany(app: FastifyInstance, token: string, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.inject({ method: 'POST', url: '/api/accountsCompany', headers: bearer(token), payload: companyBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`create company: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function createStaff(app: FastifyInstance, token: string, companyId: number, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.inject({ method: 'POST', url: '/api/accountsStaff', headers: bearer(token), payload: staffBody(companyId, overrides) });
  if (res.statusCode !== 201) throw new Error(`create staff: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A workbook written by SheetJS (@e965/xlsx) from rows of cells (first row = headers). */
export function workbook(rows: unknown[][], bookType: 'xlsx' | 'xls' = 'xlsx', sheetName = 'Sheet1'): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, sheetName);
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}

/** A multipart/form-data body with one file (and optional fields). */
export function multipart(file: Buffer, fileName = 'upload.xlsx', fields: Record<string, string> = {}, fieldName = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----dispatchtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${encodeURIComponent(fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Rows of the first visible sheet of an xlsx/xls buffer, as SheetJS reads them (raw values). */
export function sheetRows(buf: Buffer): unknown[][] {
  const wb = XLSX.read(buf, { type: 'buffer' });
  return XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true, defval: null }) as unknown[][];
}

/**
 * A user with one role of the given data scope and permission codes, in a department (created when
 * `deptName` is new); returns its token and department id.
 */
export async function scopedUser(
  app: FastifyInstance,
  opts: { username: string; codes: string[]; dataScope?: '全部' | '本级' | '自定义'; deptName?: string; customDepts?: number[] },
): Promise<{ token: string; deptId: number; userId: number }> {
  const { hashPassword } = await import('../src/core/auth/password.ts');
  const { insertReturningId, nowIso } = await import('../src/core/db.ts');
  const db = app.ctx.db;
  const dialect = app.ctx.dialect;
  const now = nowIso();
  const deptName = opts.deptName ?? `部门${opts.username}`;
  let dept = await db.selectFrom('sys_dept').select('id').where('name', '=', deptName).executeTakeFirst();
  const deptId = dept ? Number(dept.id) : await insertReturningId(db, dialect, 'sys_dept', { name: deptName, pid: 1, sort: 9, enabled: 1, create_time: now });
  dept = { id: deptId };
  const roleId = await insertReturningId(db, dialect, 'sys_role', { name: `角色${opts.username}`, level: 2, data_scope: opts.dataScope ?? '本级', create_time: now });
  for (const code of opts.codes) {
    const p = await db.selectFrom('sys_permission').select('id').where('name', '=', code).executeTakeFirstOrThrow();
    await db.insertInto('sys_roles_permissions').values({ role_id: roleId, permission_id: p.id }).execute();
  }
  for (const d of opts.customDepts ?? []) await db.insertInto('sys_roles_depts').values({ role_id: roleId, dept_id: d }).execute();
  const password = 'Passw0rd!x';
  const userId = await insertReturningId(db, dialect, 'sys_user', {
    username: opts.username,
    cname: opts.username,
    email: `${opts.username}@example.com`,
    password_hash: await hashPassword(password),
    enabled: 1,
    dept_id: deptId,
    token_version: 0,
    create_time: now,
  });
  await db.insertInto('sys_users_roles').values({ user_id: userId, role_id: roleId }).execute();
  return { token: await login(app, opts.username, password), deptId, userId };
}

/** The staff import sheet's headers (the template's required and usual columns, 银行卡号 last). */
export const STAFF_SHEET_HEADERS = ['所属单位', '姓名', '身份证号', '户籍类型', '手机号', '入职日期', '基本工资', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间', '银行卡号'];

/** One staff row of an import sheet in the order of `headers`: valid values, replaced by `overrides` (header -> cell). */
export function staffSheetRow(headers: readonly string[], company: string, name: string, id: unknown, overrides: Record<string, unknown> = {}): unknown[] {
  const base: Record<string, unknown> = {
    所属单位: company,
    姓名: name,
    身份证号: id,
    户籍类型: '本农',
    手机号: '13900001111',
    入职日期: '2024-03-01',
    基本工资: 6500,
    税种: '工资薪金',
    保险种类: '五险一金',
    专项附加扣除: 0,
    派遣日期: '2024-03-01',
    合同状态: '已签订',
    合同开始: '2024-03-01',
    合同结束: '2026-02-28',
    参保状态: '已参保',
    参保时间: '2024-03-01',
    银行卡号: '6222020200112233445',
    ...overrides,
  };
  return headers.map((h) => base[h]);
}
