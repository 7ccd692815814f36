import { describe, expect, it } from 'vitest';
import { renderError } from '@app/shared/errors/catalogue';
import { payslipMismatches } from '@app/shared/payroll/payslipCheck';
import { checkPayslipSheet } from '../src/modules/payroll/payslipImport.ts';
import { adminApp, } from './helpers.ts';
import { idCard, multipart, workbook } from './dispatch-fixtures.ts';

// Payslips add up on their face (issue 10 item 11): P6 (an import whose 实发 does not match its items is reported
// per row), S4 (the import streams: two passes over the file, a row cap, all or nothing).

const session = adminApp();

const HEADER = ['月份', '姓名', '身份证号', '基础工资', '加班费', '扣款（税前）', '本期应发', '社保公积金合计', '应纳税额', '工会费', '实发'];

async function importSheet(rows: unknown[][], headers: Record<string, string> = {}) {
  const mp = multipart(workbook(rows, 'xlsx'), 'payslips.xlsx');
  const res = await session.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, ...headers, authorization: `Bearer ${session.token}` }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}
/** A valid, distinct ID card for person n (n < 40,000). */
const personId = (n: number) => idCard(`${1960 + Math.floor(n / 1000)}-01-01`, n % 1000);
const slipsOf = (month: string) => session.app.ctx.db.selectFrom('ac_payslip').selectAll().where('month', '=', month).orderBy('id').execute();

describe('payslip arithmetic (P6)', () => {
  it('accepts a payslip that adds up, with 扣款 subtracted and 年终1/2 inside 本期应发 or not', () => {
    // 8,000.00 + 500.00 − 100.00 = 8,400.00; 8,400.00 − 1,803.00 − 47.91 − 20.00 = 6,529.09
    const ok = { jichu: 800_000, jiaban: 50_000, koukuan: 10_000, benqi: 840_000, shebaogongjijin: 180_300, yingna: 4_791, gonghui: 2_000, shifa: 652_909 };
    expect(payslipMismatches(ok)).toEqual([]);
    expect(payslipMismatches({ ...ok, nianzhong1: 100_000 })).toEqual([]);
    expect(payslipMismatches({ ...ok, nianzhong1: 100_000, benqi: 940_000, shifa: 752_909 })).toEqual([]);
    // 社保 from 社保个人合计 + 公积金, or the four items, when 社保公积金合计 is empty
    const { shebaogongjijin: _s, ...noTotal } = ok;
    expect(payslipMismatches({ ...noTotal, shebaogeren: 84_300, gongjijin: 96_000 })).toEqual([]);
    expect(payslipMismatches({ ...noTotal, yanglao: 64_000, yiliao: 16_300, shiye: 4_000, gongjijin: 96_000 })).toEqual([]);
  });

  it('names the total that does not match, to the fen', () => {
    const m = payslipMismatches({ jichu: 800_000, jiaban: 50_000, benqi: 840_000, shebaogongjijin: 180_300, yingna: 4_791, shifa: 660_000 });
    expect(m.map((w) => ({ column: w.column, message: renderError(w.message.code, w.message.params, 'zh') }))).toEqual([
      { column: '本期应发', message: '本期应发8400.00与各收入项合计8500.00不符（仅提示，已按文件导入）' },
      { column: '实发', message: '实发6600.00与 本期应发 − 社保公积金 − 应纳税额 − 工会费 = 6549.09 不符（仅提示，已按文件导入）' },
    ]);
    // 年终3/年终4 filled: how they enter 实发 is the office's rule, so 实发 is not checked
    expect(payslipMismatches({ benqi: 840_000, shifa: 1, nianzhong3: 5 })).toEqual([]);
    // nothing to compare: no warning
    expect(payslipMismatches({ shifa: 1 })).toEqual([]);
  });

  it('imports a row whose 实发 does not add up and reports it per row', async () => {
    const good = personId(2001);
    const bad = personId(2002);
    const res = await importSheet([HEADER, ['2026-03', '甲', good, 8000, 500, 100, 8400, 1803, 47.91, 20, 6529.09], ['2026-03', '乙', bad, 8000, 500, 100, 8400, 1803, 47.91, 20, 6600]]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, inserted: 2, failed: 0 });
    expect(res.body.warnings).toEqual([{ row: 3, column: '实发', message: '实发6600.00与 本期应发 − 社保公积金 − 应纳税额 − 工会费 = 6529.09 不符（仅提示，已按文件导入）' }]);
    const slips = await slipsOf('2026-03');
    // the same warning in an English import's answer: column and sentence translated, the figures as they are
    const other = personId(2003);
    const en = await importSheet([HEADER, ['2026-04', '丙', other, 8000, 500, 100, 8400, 1803, 47.91, 20, 6600]], { 'accept-language': 'en' });
    expect(en.status).toBe(200);
    expect(en.body.warnings).toHaveLength(1);
    expect(en.body.warnings[0].message).toBe('Net pay 6600.00 does not match gross pay − social insurance and housing fund − tax due − union dues = 6529.09 (warning only; imported as in the file)');
    expect(`${en.body.warnings[0].column} ${en.body.warnings[0].message}`).not.toMatch(/[\u4e00-\u9fff]/);
    expect(slips.map((s) => [s.id_card, Number(s.jiaban), Number(s.koukuan), Number(s.shifa)])).toEqual([
      [good, 50_000, 10_000, 652_909],
      [bad, 50_000, 10_000, 660_000],
    ]);
  });
});

describe('streamed payslip import (S4)', () => {
  it('refuses a file over the row cap before writing anything', async () => {
    const rows = [HEADER, ...Array.from({ length: 12 }, (_v, i) => ['2026-04', `人${i}`, personId(3000 + i), 1000])];
    await expect(checkPayslipSheet(workbook(rows, 'xlsx'), 11)).rejects.toThrow('工资条文件超过11行的上限，请分成多个文件导入');
    await expect(checkPayslipSheet(workbook(rows, 'xlsx'), 12)).resolves.toEqual({ total: 12, warnings: [] });
  });

  it('writes several chunks in one transaction: 1,200 rows land, and a row that cannot be placed in the last chunk rolls all back', async () => {
    const month = '2026-05';
    const rows = Array.from({ length: 1_200 }, (_v, i) => [month, `批量${i}`, personId(10_000 + i), 1000 + i, '', '', 1000 + i]);
    const res = await importSheet([HEADER, ...rows]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1_200, inserted: 1_200, updated: 0, unchanged: 0, warnings: [] });
    const stored = await slipsOf(month);
    expect(stored).toHaveLength(1_200);
    expect(Number(stored[1_199].jichu)).toBe(219_900);

    // the last person has payslips of the month from two client companies: a re-import without 名称 cannot say
    // which one it replaces, so the whole file (1,200 rows, 2 chunks) is refused and nothing changes
    const last = stored[1_199];
    await session.app.ctx.db.updateTable('ac_payslip').set({ mingcheng: '甲单位' }).where('id', '=', Number(last.id)).execute();
    await session.app.ctx.db.insertInto('ac_payslip').values({ month, name: '批量1199', id_card: String(last.id_card), mingcheng: '乙单位', jichu: 1, source: '导入' }).execute();
    const changed = rows.map((r) => [...r.slice(0, 3), Number(r[3]) + 1, '', '', Number(r[6]) + 1]);
    const refused = await importSheet([HEADER, ...changed]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^1行无法确定对应的工资条，未导入任何数据：第1201行“身份证号”/);
    const after = await slipsOf(month);
    expect(after.filter((s) => Number(s.jichu) !== 1).map((s) => Number(s.jichu))).toEqual(stored.map((s) => Number(s.jichu)));
  });
});
