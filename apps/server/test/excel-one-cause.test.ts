import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, idCard, multipart, uniq, workbook } from './dispatch-fixtures.ts';

// Issue 14 X4: one cause, one error. A bad 户籍类型 cell leaves the ratios derived from it unfilled; they are
// named in that cell's message, not reported again as missing.

const session = adminApp();

const HEADERS = ['所属单位', '姓名', '身份证号', '户籍类型', '手机号', '入职日期', '基本工资', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间'];
const row = (company: string, name: string, id: string, census: string) => [company, name, id, census, '13900001111', '2024-03-01', 6500, '工资薪金', '五险一金', 0, '2024-03-01', '已签订', '2024-03-01', '2026-02-28', '已参保', '2024-03-01'];

describe('one cause, one error (X4)', () => {
  it('a bad 户籍类型 cell is one error naming the ratios that follow from it', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('一因单位') });
    const mp = multipart(workbook([HEADERS, row(c.companyName, '一因甲', idCard('1990-01-01', 81), '本农'), row(c.companyName, '一因乙', idCard('1990-01-01', 83), '外星户籍')]), 'staff.xlsx');
    const res = await session.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, inserted: 1, failed: 1 });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ row: 3, column: '户籍类型' });
    expect(body.errors[0].message).toMatch(/^户籍类型"外星户籍"不是可选值.*（.*比例.*由此推导，更正该列后自动填写）$/);
    expect(body.errors[0].message).not.toContain('请输入');
  });
});
