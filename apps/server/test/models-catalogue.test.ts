import { describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors.ts';
import { crosstabModel } from '../src/modules/operations/models/analysisModels.ts';
import { checkParameterInfo, coerceTaskParameters } from '../src/modules/operations/models/catalogue.ts';
import { percent, toFen } from '../src/modules/operations/models/numbers.ts';
import { type CodedMessage, renderError } from '@app/shared/errors/catalogue';
import { contractExpiryModel, laborCostModel, payAnomalyModel, siBaseCheckModel } from '../src/modules/operations/models/officeModels.ts';
import type { CensusLimits, ModelInput, Row } from '../src/modules/operations/models/types.ts';

async function* rowsOf(rows: Row[]) {
  yield* rows;
}
const input = (fields: string[], rows: Row[], params: ModelInput['params'] = {}): ModelInput => ({ fields, rows: rowsOf(rows), params, today: '2026-11-24' });

describe('built-in model catalogue', () => {
  it('sums money exactly in fen (0.1 + 0.2 is 0.30, not 0.30000000000000004)', async () => {
    const rows = [
      { month: '2026-10', companyName: '甲', gross: '0.10', labourCost: 0.1, realSalary: '1,000.05' },
      { month: '2026-10', companyName: '甲', gross: '0.20', labourCost: 0.2, realSalary: '2000.10' },
      { month: '2026-09', companyName: '甲', gross: '99', labourCost: 99, realSalary: '99' },
      { month: '2026-10', companyName: '乙', gross: '5000', labourCost: 6500.55, realSalary: '4100.45' },
    ];
    const r = await laborCostModel.run(input(['month', 'companyName', 'gross', 'fiveOne', 'tax', 'realSalary', 'employerTotal', 'labourCost'], rows));
    const sheet = r.files[0].sheet;
    expect(r.files[0].name).toBe('人力成本报告_2026-10');
    // companies in pinyin order (甲 jia before 乙 yi)
    expect(sheet.rows[0]).toEqual(['甲', 2, 0.3, 0, 0, 3000.15, 0, 0.3]);
    expect(sheet.rows[1]).toEqual(['乙', 1, 5000, 0, 0, 4100.45, 0, 6500.55]);
    expect(sheet.rows[2]).toEqual(['合计', 3, 5000.3, 0, 0, 7100.6, 0, 6500.85]);
    expect(r.traits).toEqual([
      ['乙', 6500.55],
      ['甲', 0.3],
    ]);
    expect(r.rowsIn).toBe(4);
  });

  it('refuses (MODEL_FIELD_MISSING) when a column it sums is absent, instead of zeros with 成功 (M5)', async () => {
    const rows = [{ month: '2026-10', companyName: '甲', idCard: '1', staffName: '张三' }];
    const cost = laborCostModel.run(input(['month', 'companyName', 'realSalary'], rows));
    await expect(cost).rejects.toMatchObject({ code: 'MODEL_FIELD_MISSING' });
    await expect(cost).rejects.toMatchObject({ message: '数据源缺少字段：应发工资(gross)、个人社保公积金(fiveOne)、个人所得税(tax)、单位社保公积金(employerTotal)、用工成本(labourCost)' });
    const anomaly = payAnomalyModel.run(input(['month', 'companyName', 'idCard', 'staffName'], rows));
    await expect(anomaly).rejects.toMatchObject({ code: 'MODEL_FIELD_MISSING', message: '数据源缺少字段：应发工资(gross)、实发工资(realSalary)' });
    // a client's sheet with 应发 as salary is enough
    const ok = await payAnomalyModel.run(input(['month', 'companyName', 'idCard', 'staffName', 'salary', 'realSalary'], rows, { month: '2026-10' }));
    expect(ok.files[0].sheet.rows).toHaveLength(1);
  });

  it('社保基数越界检查 states its findings as catalogue messages, written in Chinese as before', async () => {
    const rows = [
      { staffName: '甲', idCard: '1', companyName: '单位', censusType: '', yanglaoBase: 3000 },
      { staffName: '乙', idCard: '2', companyName: '单位', censusType: '本城', yanglaoBase: 3000, yanglaoRatioSelf: '0.07' },
      { staffName: '丙', idCard: '3', companyName: '单位', censusType: '外城', yanglaoBase: 40000 },
      { staffName: '丁', idCard: '4', companyName: '单位', censusType: '外农', yanglaoBase: 5000 },
    ];
    const limits = new Map<string, CensusLimits | CodedMessage>([
      ['本城', { bases: { yanglaoBase: [500_000, 3_000_000] }, ratios: { yanglaoRatioSelf: '0.08' } }],
      ['外城', { bases: { yanglaoBase: [500_000, 3_000_000] }, ratios: {} }],
      ['外农', { code: 'RATE_CENSUS_NO_DICTIONARY', params: { census: '外农' } }],
    ]);
    const r = await siBaseCheckModel.run({ ...input(['censusType', 'staffName', 'yanglaoBase', 'yanglaoRatioSelf'], rows, { month: '2026-10' }), censusLimits: async () => limits });
    const notes = r.files[0].sheet.rows.map((row) => row[6] as CodedMessage);
    expect(notes.map((m) => renderError(m.code, m.params, 'zh'))).toEqual(['未填写户籍类型', '低于下限 5000', '费率字典为 0.08', '高于上限 30000', '户籍类型“外农”在字典 census_type 中没有对应的费率字典']);
    // in English only the census type (the dictionary's own label) stays Chinese
    for (const m of notes) expect(renderError(m.code, m.params, 'en').replace('外农', '')).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('crosstab sums and averages in fen, half-up', async () => {
    const rows = [
      { a: 'x', b: 'p', v: '1.005' },
      { a: 'x', b: 'p', v: '1.00' },
      { a: 'x', b: 'q', v: '3' },
      { a: 'y', b: 'q', v: '' },
    ];
    const sum = await crosstabModel.run(input(['a', 'b', 'v'], rows, { rowField: 'a', colField: 'b', measure: 'sum:v' }));
    expect(sum.files[0].sheet.rows).toEqual([
      ['x', 2.01, 3, 5.01],
      ['合计', 2.01, 3, 5.01],
    ]);
    const avg = await crosstabModel.run(input(['a', 'b', 'v'], rows, { rowField: 'a', colField: 'b', measure: 'avg:v' }));
    expect(avg.files[0].sheet.rows[0]).toEqual(['x', 1.01, 3, 1.67]);
    await expect(crosstabModel.run(input(['a', 'b'], rows, { rowField: 'a', colField: 'b', measure: 'max:v' }))).rejects.toThrow(AppError);
  });

  it('lists contracts ending within N days, soonest first', async () => {
    const rows = [
      { staffName: '甲', companyName: 'A', contractEnd: '2026-12-20' },
      { staffName: '乙', companyName: 'A', contractEnd: '2026-11-25' },
      { staffName: '丙', companyName: 'B', contractEnd: '2026-11-01' },
      { staffName: '丁', companyName: 'B', contractEnd: '2027-06-01' },
    ];
    const r = await contractExpiryModel.run(input(['staffName', 'companyName', 'contractEnd'], rows, { withinDays: 30 }));
    expect(r.files[0].sheet.rows.map((x) => [x[1], x[5]])).toEqual([
      ['乙', 1],
      ['甲', 26],
    ]);
  });

  it('parameter rules and coercion', () => {
    expect(() => checkParameterInfo([{ parameterCode: '', parameterName: 'x', parameterType: 'String' }])).toThrow('请输入参数信息！');
    expect(() => checkParameterInfo([{ parameterCode: 'a', parameterName: 'x', parameterType: 'Float' }])).toThrow(AppError);
    const info = checkParameterInfo([
      { parameterCode: 'n', parameterName: '数量', parameterType: 'Interger', defaultValue: '10' },
      { parameterCode: 'b', parameterName: '开关', parameterType: 'Boolean' },
    ]);
    expect(info[0].defaultValue).toBe(10);
    expect(coerceTaskParameters(info, { b: 'true', other: 'dropped' })).toEqual({ n: 10, b: true });
    expect(() => coerceTaskParameters(info, { n: '1.5' })).toThrow('参数“数量”应为整数');
  });

  it('money and share helpers', () => {
    expect(toFen('1,234.565')).toBe(123457);
    expect(toFen(0.1)).toBe(10);
    expect(toFen('-3.2')).toBe(-320);
    expect(toFen('abc')).toBeNull();
    expect(percent(1, 3)).toBe(33.33);
    expect(percent(2, 3)).toBe(66.67);
  });
});
