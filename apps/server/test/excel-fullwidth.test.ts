import { describe, expect, it } from 'vitest';
import { foldWidth } from '../src/core/excel/cells.ts';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, idCard, multipart, uniq, workbook, STAFF_SHEET_HEADERS, staffSheetRow } from './dispatch-fixtures.ts';

// Issue 14 X3: what a Chinese IME types in full-width mode (１１０１…, １３９…, ８８８８．８８, ２０２５－０１－０２,
// ASCII brackets against the list's full-width ones) imports; free text is stored as typed; messages do not
// double the word of a label that already ends with it ('入职日期日期').

const session = adminApp();

const full = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

const STAFF_HEADERS = STAFF_SHEET_HEADERS;
const staffRow = (company: string, name: string, id: string, overrides: Record<string, unknown> = {}) => staffSheetRow(STAFF_HEADERS, company, name, id, overrides);

async function upload(resource: string, file: Buffer) {
  const mp = multipart(file, 'file.xlsx');
  const res = await session.app.inject({ method: 'POST', url: `/api/import/${resource}`, headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}

describe('full-width input (X3)', () => {
  it('foldWidth folds full-width ASCII and the ideographic space only', () => {
    expect(foldWidth('１１０１０１１９９００１０１００１Ｘ')).toBe('11010119900101001X');
    expect(foldWidth('８８８８．８８')).toBe('8888.88');
    expect(foldWidth('２０２５－０１－０２')).toBe('2025-01-02');
    expect(foldWidth('本农（养24号文）')).toBe('本农(养24号文)');
    expect(foldWidth('１２％\u3000')).toBe('12% ');
    expect(foldWidth('张三，￥')).toBe('张三,￥');
  });

  it('staff: full-width ID, phone, money, dates and ASCII brackets against the dictionary label import; names as typed', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('全角单位') });
    const id = idCard('1990-01-01', 61);
    const res = await upload(
      'accountsStaff',
      workbook([
        STAFF_HEADERS,
        staffRow(c.companyName, '全角　甲', full(id), {
          户籍类型: '本农(养24号文)',
          手机号: full('13900001111'),
          入职日期: full('2025-01-02'),
          基本工资: full('8888.88'),
          专项附加扣除: `${full('1,000')}元`,
          派遣日期: '２０２５年１月２日',
        }),
        staffRow(c.companyName, '全角乙', idCard('1990-01-01', 63), { 入职日期: '2025-13-45' }),
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, inserted: 1, failed: 1 });
    expect(res.body.errors).toEqual([{ row: 3, column: '入职日期', message: '入职日期格式应为YYYY-MM-DD' }]);
    const row = await session.app.ctx.db.selectFrom('accounts_staff').selectAll().where('company_id', '=', c.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ staff_name: '全角　甲', id_card: id, census_type: 'bennong_24', phone: '13900001111', induction_date: '2025-01-02', dispatch_date: '2025-01-02' });
    expect(Number(row.salary)).toBe(888888);
    expect(Number(row.deduct)).toBe(100000);
  });

  it('payslips: full-width month, ID card and amounts', async () => {
    const id = idCard('1992-03-04', 65);
    const res = await upload(
      'acPayslip',
      workbook([
        ['月份', '姓名', '身份证号', '基础工资', '实发'],
        [full('2026-08'), '全角丙', full(id), full('8888.88'), '８，８８８．８８'],
      ]),
    );
    expect(res).toMatchObject({ status: 200, body: { inserted: 1 } });
    const slip = await session.app.ctx.db.selectFrom('ac_payslip').selectAll().where('id_card', '=', id).executeTakeFirstOrThrow();
    expect(slip).toMatchObject({ month: '2026-08' });
    expect(Number(slip.jichu)).toBe(888888);
    expect(Number(slip.shifa)).toBe(888888);
  });
});
