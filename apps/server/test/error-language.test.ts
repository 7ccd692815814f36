import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { idOf, newUserBody } from './system-fixtures.ts';

/** Errors are data: a catalogue code on every error answer, the message in the request's Accept-Language. */
describe('error messages in the request language', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, language: string | undefined, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      payload: payload as never,
      headers: { authorization: `Bearer ${token}`, ...(language ? { 'accept-language': language } : {}) },
    });

  it('answers in Chinese without Accept-Language or with an unknown one, byte for byte as before', async () => {
    for (const lang of [undefined, 'fr-FR', '*', 'de;q=0.9']) {
      const res = await call('GET', '/api/users/999999', lang);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'RECORD_NOT_FOUND', message: '用户不存在或无权访问' });
    }
  });

  it('answers in English, Japanese or Spanish when asked, with the code and never a stack trace', async () => {
    const en = await call('GET', '/api/users/999999', 'en-US,en;q=0.9,zh;q=0.5');
    expect(en.json()).toMatchObject({ code: 'RECORD_NOT_FOUND', message: 'User does not exist or is not accessible' });
    expect(en.headers['content-language']).toBe('en');
    const ja = await call('GET', '/api/users/999999', 'ja');
    expect(ja.json().message).toBe('ユーザーが存在しないか、アクセス権がありません');
    const es = await call('GET', '/api/users/999999', 'es-419');
    expect(es.json().message).toMatch(/no existe/);

    const unauth = await t.app.inject({ method: 'GET', url: '/api/users', headers: { 'accept-language': 'en' } });
    expect(unauth.json()).toMatchObject({ status: 401, code: 'NOT_LOGGED_IN', message: 'Not logged in, or the session has expired' });
    const badJson = await t.app.inject({ method: 'POST', url: '/api/users', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'ja' }, payload: '{' });
    expect(badJson.json()).toMatchObject({ status: 400, code: 'INVALID_JSON', message: 'リクエスト本文が正しいJSONではありません' });
    const noApi = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { 'accept-language': 'en' } });
    expect(noApi.json()).toMatchObject({ status: 404, code: 'API_NOT_FOUND', message: 'No such API endpoint' });
    for (const res of [en, ja, es, unauth, badJson, noApi]) {
      expect(res.body).not.toMatch(/\n\s+at |stack/);
      expect(typeof res.json().code).toBe('string');
    }
  });

  it('translates a 409 and field errors, which carry their codes', async () => {
    const role = await idOf(t, 'sys_role', '普通员工');
    const body = newUserBody('lang_user', [role]);
    expect((await call('POST', '/api/users', undefined, body)).statusCode).toBe(201);
    const dupZh = await call('POST', '/api/users', undefined, body);
    expect(dupZh.json()).toMatchObject({ status: 409, code: 'USERNAME_TAKEN', message: '用户名已存在' });
    const dupEn = await call('POST', '/api/users', 'en', body);
    expect(dupEn.json()).toMatchObject({ status: 409, code: 'USERNAME_TAKEN', message: 'The username already exists' });

    const missing = await call('POST', '/api/users', 'en', { ...newUserBody('lang_user2', [role]), username: '' });
    expect(missing.statusCode).toBe(400);
    const m = missing.json();
    expect(Object.keys(m.fieldErrors)).toContain('username');
    expect(m.fieldErrors.username).not.toMatch(/[\u4e00-\u9fff]/);
    expect(m.fieldErrorCodes.username).toMatch(/^[A-Z_]+$/);
    const zh = (await call('POST', '/api/users', undefined, { ...newUserBody('lang_user2', [role]), username: '' })).json();
    expect(zh.fieldErrorCodes).toEqual(m.fieldErrorCodes);
    expect(zh.fieldErrors.username).toMatch(/[\u4e00-\u9fff]/);
  });
  it("answers a contract's own check and a definition's own sentence in the request language, with their codes", async () => {
    const sizeEn = (await call('GET', '/api/settlement?size=101', 'en')).json();
    expect(sizeEn).toMatchObject({ status: 400, code: 'PAGE_SIZE_RANGE', message: 'The page size must be an integer from 1 to 100' });
    const sizeZh = (await call('GET', '/api/settlement?size=101', undefined)).json();
    expect(sizeZh).toMatchObject({ status: 400, code: 'PAGE_SIZE_RANGE', message: '每页条数必须是1到100的整数' });
    const staffEn = (await call('POST', '/api/accountsStaff', 'en', { staffName: '' })).json();
    expect(staffEn.fieldErrors.staffName).toBe('Please enter Name');
    expect(staffEn.fieldErrorCodes.staffName).toBe('FIELD_REQUIRED_TEXT');
    const staffZh = (await call('POST', '/api/accountsStaff', undefined, { staffName: '' })).json();
    expect(staffZh.fieldErrors.staffName).toBe('请输入员工姓名');
  });
  it("answers the field kinds' own checks (integer, money, ratio, date) with codes: Chinese word for word, English with translated labels", async () => {
    const body = { name: '张三', base: '1.234', proportion: '2', toDate: '2024-13-45', totalMonth: '1.5' };
    const zh = (await call('POST', '/api/accGjj', undefined, body)).json();
    expect(zh).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(zh.fieldErrors).toEqual({ base: '基数最多两位小数', proportion: '比例必须在0到1之间', toDate: '缴至日期格式应为YYYY-MM-DD', totalMonth: '累计月数必须是整数' });
    const codes = { base: 'FIELD_MONEY_SCALE', proportion: 'FIELD_RATIO_RANGE', toDate: 'FIELD_DATE', totalMonth: 'FIELD_INTEGER' };
    expect(zh.fieldErrorCodes).toEqual(codes);
    const en = (await call('POST', '/api/accGjj', 'en', body)).json();
    expect(en.fieldErrorCodes).toEqual(codes);
    expect(en.fieldErrors).toEqual({
      base: 'Base may have at most two decimals',
      proportion: 'Rate must be between 0 and 1',
      toDate: 'Paid until: the date must be YYYY-MM-DD',
      totalMonth: 'Total months must be an integer',
    });
    // a label that already ends in 日期 is not followed by a second 日期
    const entry = { name: '张三', entryDate: 'soon' };
    expect((await call('POST', '/api/accEntry', undefined, entry)).json()).toMatchObject({ code: 'VALIDATION', message: '入职日期格式应为YYYY-MM-DD', fieldErrorCodes: { entryDate: 'FIELD_DATE_NAMED' } });
    expect((await call('POST', '/api/accEntry', 'en', entry)).json()).toMatchObject({ message: 'Hire date must be a date in the form YYYY-MM-DD' });
    const money = (await call('POST', '/api/accGjj', 'en', { name: '张三', base: 'abc' })).json();
    expect(money).toMatchObject({ message: 'Base must be a number', fieldErrorCodes: { base: 'FIELD_NUMBER' } });
  });

  it("answers a list's paging, sort and filter checks with codes; a filter's reason is the kind's own, in the same language", async () => {
    const pageZh = (await call('GET', '/api/dept?page=-1', undefined)).json();
    expect(pageZh).toMatchObject({ status: 400, code: 'PAGE_INVALID', message: 'page 必须是不小于0的整数' });
    expect((await call('GET', '/api/dept?size=0', 'en')).json()).toMatchObject({ code: 'SIZE_INVALID', message: 'size must be an integer greater than 0' });
    expect((await call('GET', '/api/dept?sort=nope,asc', 'en')).json()).toMatchObject({ code: 'SORT_FIELD', message: 'Unsupported sort field: nope' });
    expect((await call('GET', '/api/dept?sort=name,up', undefined)).json()).toMatchObject({ code: 'SORT_DIRECTION', message: '排序方向只能是 asc 或 desc: up' });
    expect((await call('GET', '/api/dept?pid=1.5', undefined)).json()).toMatchObject({ status: 400, message: '上级部门筛选值无效: 上级部门必须是整数' });
    const pidEn = (await call('GET', '/api/dept?pid=1.5', 'en')).json();
    expect(pidEn.message).toBe('Invalid filter value for Parent department: Parent department must be an integer');
    expect((await call('GET', `/api/dept?name=${'x'.repeat(101)}`, 'ja')).json()).toMatchObject({ message: '名称の絞り込み値が長すぎます' });
  });

  /** Chinese characters, and zod's own English wording (which must never reach a Chinese screen). */
  const CJK = /[\u4e00-\u9fff]/;
  const ZOD_ENGLISH = /Invalid input|expected |received |Too (small|big)|Invalid option|Unrecognized key/;

  it("maps zod's own type errors to catalogue codes: no Chinese in English answers, no English in Chinese ones", async () => {
    const role = await idOf(t, 'sys_role', '普通员工');
    const cases: { method: 'GET' | 'POST'; url: string; payload?: unknown; status: number; code: string; field?: string }[] = [
      // contract route (contracts/email.ts): a boolean sent as text is zod's own invalid_type
      { method: 'POST', url: '/api/email', payload: { subject: 's', tos: ['a@b.cn'], content: 'c', separately: 'yes' }, status: 400, code: 'VALIDATION', field: 'separately' },
      // resource routes: a type error in a body field, and a malformed path id
      { method: 'POST', url: '/api/users', payload: { ...newUserBody('zod_type', [role]), deptId: { x: 1 } }, status: 400, code: 'VALIDATION', field: 'deptId' },
      { method: 'GET', url: '/api/users/abc', status: 400, code: 'ID_INVALID' },
    ];
    for (const c of cases) {
      const en = await call(c.method, c.url, 'en', c.payload);
      const zh = await call(c.method, c.url, undefined, c.payload);
      for (const res of [en, zh]) expect(res.json(), c.url).toMatchObject({ status: c.status, code: c.code });
      expect(en.json().message, c.url).not.toMatch(CJK);
      expect(zh.json().message, c.url).toMatch(CJK);
      expect(zh.json().message, c.url).not.toMatch(ZOD_ENGLISH);
      if (c.field) {
        expect(en.json().fieldErrors[c.field], c.url).not.toMatch(CJK);
        expect(en.json().fieldErrors[c.field], c.url).not.toMatch(ZOD_ENGLISH);
        expect(zh.json().fieldErrors[c.field], c.url).toMatch(CJK);
        expect(zh.json().fieldErrors[c.field], c.url).not.toMatch(ZOD_ENGLISH);
        expect(en.json().fieldErrorCodes[c.field]).toBe(zh.json().fieldErrorCodes[c.field]);
      }
    }
    const separately = (await call('POST', '/api/email', 'en', cases[0].payload)).json();
    expect(separately).toMatchObject({ fieldErrors: { separately: 'separately must be yes or no' }, fieldErrorCodes: { separately: 'FIELD_BOOLEAN' } });
  });
});

/**
 * The converted modules throw catalogue codes only (`new AppError(CODE, params)`): no Chinese literal is handed
 * to an error helper or to the legacy `new AppError(status, 中文)` there. `${...}` parts of template literals
 * stand for parameters. The other modules are converted module by module (issue 21 item 2).
 */
describe('catalogue codes in the converted modules', () => {
  const SRC = path.resolve(import.meta.dirname, '../src');
  const CONVERTED = [
    'core/errors.ts',
    'core/plugins',
    'core/security.ts',
    'core/rbac.ts',
    'core/auth/captcha.ts',
    'modules/auth/routes.ts',
    'modules/system',
    'modules/dispatch/staffAccounts.ts',
    'core/secrets.ts',
    'core/excel',
    'crud',
    'modules/dispatch',
    'modules/operations/dataSources',
    'modules/operations/models',
  ];
  const files = CONVERTED.flatMap((p) => {
    const full = path.join(SRC, p);
    return fs.statSync(full).isDirectory() ? fs.readdirSync(full).filter((f) => f.endsWith('.ts')).map((f) => path.join(full, f)) : [full];
  });
  const ERROR_CALL = /(?:badRequest|conflict|notFound|forbidden|unauthorized|tooManyRequests|validationError|new (?:WorkbookFormatError|ImportFileError|HeaderNotFoundError|ZipLimitError)\(|perIpPerMinute\(\s*[\w.]+\s*,|new AppError\(\s*\d+\s*,)\s*\(?\s*(['`])((?:(?!\1)[^\n\\]|\\.)*)\1/g;

  it('throws no Chinese text', () => {
    const chinese: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(ERROR_CALL)) if (/[\u4e00-\u9fff]/.test(m[2].replace(/\$\{[^}]*\}/g, 'X'))) chinese.push(`${path.relative(SRC, file)}: ${m[2]}`);
    }
    expect(files.length).toBeGreaterThan(15);
    expect(chinese).toEqual([]);
  });
});
