import { describe, expect, it } from 'vitest';
import { luhnValid } from '@app/shared/payout/bankLayout';
import { multipart, scopedUser } from './dispatch-fixtures.ts';
import { bearer, type TestApp } from './helpers.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

/**
 * 代发工资 end to end (issue 23 items 2-3) on the test database: pre-check refusals row by row, a batch from a
 * confirmed month, the bank file (exporting locks it), a return file with 2 failed rows, card corrections, a re-pay
 * batch of the failed rows only, and the totals: paid = confirmed, no row paid twice. Permission refusals too.
 */

/** A card number of `prefix` digits plus its Luhn check digit. */
function card(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(prefix + d)) return prefix + d;
  throw new Error('unreachable');
}
/** The same card with a wrong check digit. */
const badLuhn = (c: string) => c.slice(0, -1) + String((Number(c.at(-1)) + 1) % 10);
const fen = (yuan: number) => Math.round(yuan * 100);

const MONTH = '2026-10';
let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  t = s.t;
  call = s.call;
  token = s.token;
});

async function templateId(name: string): Promise<number> {
  const r = await call('GET', '/api/bankTemplate?size=50');
  expect(r.status).toBe(200);
  const found = r.body.content.find((x: { templateName: string }) => x.templateName === name);
  expect(found).toBeTruthy();
  return found.id;
}

/** The generic CSV's return file: the exported lines with 状态 and 原因 appended. */
function answer(csv: string, failures: Record<number, string>): Buffer {
  const lines = csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  const out = lines.map((l, i) => (i === 0 ? `${l},状态,原因` : failures[i] ? `${l},失败,${failures[i]}` : `${l},成功,`));
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${out.join('\r\n')}\r\n`, 'utf8')]);
}

async function importReturn(batchId: number, file: Buffer, as = token, language?: string) {
  const m = multipart(file, 'return.csv');
  const languageHeader = language ? { 'accept-language': language } : {};
  const res = await t.app.inject({ method: 'POST', url: `/api/import/payoutReturn/${batchId}`, headers: { ...m.headers, ...bearer(as), ...languageHeader }, payload: m.payload });
  return { status: res.statusCode, body: res.json() };
}

async function exportFile(batchId: number, as = token) {
  const res = await t.app.inject({ method: 'GET', url: `/api/export/payout/${batchId}`, headers: bearer(as) });
  return res;
}

describe('payout batches, bank file and return file', () => {
  it('refuses a batch row by row, then generates, exports (locks), reconciles the return file and re-pays only failed rows', async () => {
    const cards = ['622202020011223344', '621700001000123456', '621483000100000001', '622588000000000002', '622588000000000003'].map(card);
    const { company, staff } = await companyWithStaff(t.app, token, [
      vectorStaff(9000, { staffName: '张三', bankcardNumber: cards[0] }),
      vectorStaff(8000, { staffName: '李四', bankcardNumber: '' }),
      vectorStaff(7000, { staffName: '王五', bankcardNumber: '6222 0202 12' }),
      vectorStaff(6000, { staffName: '赵六', bankcardNumber: badLuhn(cards[3]) }),
      vectorStaff(5000, { staffName: '钱七', bankcardNumber: cards[4] }),
    ]);
    const csvId = await templateId('通用 CSV');

    // not confirmed yet
    const early = await call('POST', '/api/payout/generate', { companyId: company.id, month: MONTH, templateId: csvId });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('尚未确认');

    const rows = await runMonth(call, company.id, MONTH);
    const confirmedTotal = rows.reduce((s, r) => s + fen(r.realSalary), 0);
    expect(rows.every((r) => r.realSalary > 0)).toBe(true);

    // every pre-check: no card, malformed card, Luhn (overridable), and the name on the card differs
    await call('PUT', '/api/accountsStaff', { ...staff[4], staffName: '钱七七' });
    const refused = await call('POST', '/api/payout/generate', { companyId: company.id, month: MONTH, templateId: csvId });
    expect(refused.status).toBe(200);
    expect(refused.body.batch).toBeNull();
    const codes = refused.body.problems.map((p: { staffName: string; code: string; overridable: boolean }) => [p.staffName, p.code, p.overridable]);
    expect(codes).toEqual([
      ['李四', 'noCard', false],
      ['王五', 'cardFormat', false],
      ['赵六', 'luhn', true],
      ['钱七', 'nameMismatch', false],
    ]);
    expect((await call('GET', `/api/payout?companyId=${company.id}`)).body.totalElements).toBe(0);

    // the clerk fixes the staff records and confirms 赵六's older card
    await call('PUT', '/api/accountsStaff', { ...staff[1], bankcardNumber: cards[1] });
    await call('PUT', '/api/accountsStaff', { ...staff[2], bankcardNumber: cards[2] });
    await call('PUT', '/api/accountsStaff', { ...staff[4], staffName: '钱七' });
    const zhao = refused.body.problems.find((p: { code: string }) => p.code === 'luhn').id;
    const made = await call('POST', '/api/payout/generate', { companyId: company.id, month: MONTH, templateId: csvId, acceptLuhn: [zhao] });
    expect(made.status).toBe(200);
    expect(made.body.problems).toEqual([]);
    const batch = made.body.batch;
    expect(batch).toMatchObject({ state: 'pending', kind: 'pay', rowCount: 5, month: MONTH });
    expect(fen(batch.total)).toBe(confirmedTotal);

    // one pay batch per month
    const again = await call('POST', '/api/payout/generate', { companyId: company.id, month: MONTH, templateId: csvId, acceptLuhn: [zhao] });
    expect(again.status).toBe(409);

    // export: the file in the template's layout; the batch is locked
    const file = await exportFile(batch.id);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    const text = file.rawPayload.subarray(3).toString('utf8');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('序号,收款账号,户名,金额,证件号码,开户行,用途');
    expect(lines).toHaveLength(6);
    expect(lines[1].startsWith(`1,${cards[0]},张三,${rows[0].realSalary.toFixed(2)},`)).toBe(true);
    const second = await exportFile(batch.id);
    expect(second.rawPayload.equals(file.rawPayload)).toBe(true);
    const locked = await call('GET', `/api/payout/${batch.id}`);
    expect(locked.body.batch.state).toBe('exported');
    expect(locked.body.rows.find((r: { staffName: string }) => r.staffName === '赵六').luhnOverride).toBe(true);
    expect((await call('DELETE', `/api/payout/${batch.id}`)).status).toBe(409);

    // a binary file is no return file: the reason is a code, in the request's language
    const binary = Buffer.from([0x41, 0x00, 0x42]);
    expect((await importReturn(batch.id, binary)).body.message).toBe('回盘文件无法读取：回盘文件不是文本或Excel文件');
    expect((await importReturn(batch.id, binary, token, 'en')).body.message).toBe('The return file cannot be read: the return file is neither text nor an Excel file');

    // the bank's answer: rows 2 and 4 failed; a line the batch does not have is listed, not applied
    const ret = answer(text, { 2: '账号不存在', 4: '户名不符' });
    const extra = Buffer.concat([ret, Buffer.from(`9,${cards[0]},张三,1.00,,,工资,成功,\r\n`, 'utf8')]);
    const imported = await importReturn(batch.id, extra);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ ok: 3, failed: 2, missing: 0 });
    expect(imported.body.unmatched).toEqual([{ line: 7, seq: '9', account: cards[0], amount: 1, why: 'noRow' }]);
    expect(imported.body.batch.state).toBe('part_failed');

    // the first answer is final: a later file cannot turn a paid row into a failed one
    const contradict = await importReturn(batch.id, answer(text, { 1: '冻结', 2: '账号不存在', 4: '户名不符' }));
    expect(contradict.body.unmatched.map((u: { seq: string; why: string }) => [u.seq, u.why])).toEqual([['1', 'alreadyPaid']]);

    // correct 李四's card (the staff record follows); a wrong card or name is refused
    const detail = (await call('GET', `/api/payout/${batch.id}`)).body.rows;
    const li = detail.find((r: { seq: number }) => r.seq === 2);
    expect(li).toMatchObject({ result: 'failed', reason: '账号不存在' });
    expect((await call('PUT', `/api/payout/row/${li.id}`, { account: '1234', accountName: '李四' })).status).toBe(400);
    expect((await call('PUT', `/api/payout/row/${li.id}`, { account: badLuhn(cards[1]), accountName: '李四' })).status).toBe(400);
    expect((await call('PUT', `/api/payout/row/${li.id}`, { account: cards[1], accountName: '李' })).status).toBe(400);
    const newCard = card('622848000000000011');
    const fixed = await call('PUT', `/api/payout/row/${li.id}`, { account: newCard.replace(/(\d{4})/g, '$1 ').trim(), accountName: '李四' });
    expect(fixed.status).toBe(200);
    expect(fixed.body.account).toBe(newCard);
    const staffNow = await call('GET', `/api/accountsStaff/${staff[1].id}`);
    expect(staffNow.body.bankcardNumber).toBe(newCard);
    const paidRow = detail.find((r: { seq: number }) => r.seq === 1);
    expect((await call('PUT', `/api/payout/row/${paidRow.id}`, { account: newCard, accountName: '张三' })).status).toBe(409);

    // re-pay: only the two failed rows
    const repay = await call('POST', `/api/payout/${batch.id}/repay`, { acceptLuhn: [] });
    expect(repay.status).toBe(200);
    expect(repay.body.problems).toEqual([]);
    const rb = repay.body.batch;
    expect(rb).toMatchObject({ kind: 'repay', parentId: batch.id, rowCount: 2, state: 'pending' });
    const failedTotal = detail.filter((r: { result: string }) => r.result === 'failed').reduce((s: number, r: { amount: number }) => s + fen(r.amount), 0);
    expect(fen(rb.total)).toBe(failedTotal);
    expect((await call('POST', `/api/payout/${batch.id}/repay`, {})).status).toBe(409);
    // a failed row (now in a re-pay batch) cannot be paid by a late line of another file
    const late = await importReturn(batch.id, answer(text, {}));
    expect(late.body.unmatched.map((u: { seq: string; why: string }) => [u.seq, u.why])).toEqual([
      // 李四's row now holds the corrected card: the old file's line no longer matches it
      ['2', 'accountDiffers'],
      ['4', 'alreadyFailed'],
    ]);

    const repayFile = await exportFile(rb.id);
    const repayText = repayFile.rawPayload.subarray(3).toString('utf8');
    expect(repayText).toContain(`1,${newCard},李四,`);
    const done = await importReturn(rb.id, answer(repayText, {}));
    expect(done.body).toMatchObject({ ok: 2, failed: 0 });
    expect(done.body.batch.state).toBe('done');
    const parent = await call('GET', `/api/payout/${batch.id}`);
    expect(parent.body.batch.state).toBe('done');

    // paid = confirmed, and every salary row paid exactly once
    const all = await call('GET', `/api/payout?companyId=${company.id}&month=${MONTH}`);
    expect(all.body.totalElements).toBe(2);
    const paid: Record<number, number> = {};
    let paidTotal = 0;
    for (const b of all.body.content) {
      for (const r of (await call('GET', `/api/payout/${b.id}`)).body.rows) {
        if (r.result !== 'ok') continue;
        paid[r.seq + b.id * 1000] = 1;
        paidTotal += fen(r.amount);
      }
    }
    expect(paidTotal).toBe(confirmedTotal);
    const okRows = (await call('GET', `/api/payout/${batch.id}`)).body.rows.filter((r: { result: string }) => r.result === 'ok').length;
    expect(okRows + 2).toBe((await salaryRows(call, company.id, MONTH)).length);
  });

  it('checks permissions on every payout route and keeps bank templates valid', async () => {
    const viewer = await scopedUser(t.app, { username: `payview${Date.now().toString(36)}`, codes: ['PAYOUT_SELECT'], dataScope: '全部' });
    const v = api(t.app, viewer.token);
    expect((await v('GET', '/api/payout')).status).toBe(200);
    expect((await v('POST', '/api/payout/generate', { companyId: 1, month: MONTH, templateId: 1 })).status).toBe(403);
    expect((await v('POST', '/api/payout/1/repay', {})).status).toBe(403);
    expect((await v('PUT', '/api/payout/row/1', { account: '1', accountName: 'x' })).status).toBe(403);
    expect((await v('DELETE', '/api/payout/1')).status).toBe(403);
    expect((await exportFile(1, viewer.token)).statusCode).toBe(403);
    expect((await importReturn(1, Buffer.from('x'), viewer.token)).status).toBe(403);
    expect((await v('GET', '/api/bankTemplate')).status).toBe(403);

    // bad input is a 400 with a reason, an unknown batch a 404
    expect((await call('POST', '/api/payout/generate', { companyId: 1, month: '2026-13', templateId: 1 })).status).toBe(400);
    expect((await call('GET', '/api/payout/999999')).status).toBe(404);

    // a template whose layout is not valid JSON is refused with the part named
    const bad = await call('POST', '/api/bankTemplate', { templateName: '坏模板', bank: '某银行', fileType: 'txt', encoding: 'GBK', delimiter: '|', columns: '[{"title":"x"', returnMapping: '{"skipLines":0,"account":1,"amount":2,"status":3,"successValues":["ok"]}' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('明细列');
    const good = await call('POST', '/api/bankTemplate', { templateName: '某银行 txt', bank: '某银行', fileType: 'txt', encoding: 'GB18030', delimiter: '@|$', titleRow: false, columns: '[{"title":"账号","field":"account"},{"title":"金额","field":"amount"}]', returnMapping: '{"skipLines":0,"account":1,"amount":2,"status":3,"successValues":["ok"]}' });
    expect(good.status).toBe(201);
  });
});
