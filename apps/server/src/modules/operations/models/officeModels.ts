import { parseIdCard } from '@app/shared/idcard';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { AppError } from '../../../core/errors.ts';
import { categoryOf, dateOf, daysBetween, eachRow, fenToYuan, previousMonth, toFen } from './numbers.ts';
import type { BuiltinModel, CellValue, ModelInput, OutputCell, Row } from './types.ts';

/** Models over the office's own datasets (月度工资, 员工花名册): reports and checks a clerk acts on. */

function requireFields(input: ModelInput, fields: string[]): void {
  const missing = fields.filter((f) => !input.fields.includes(f));
  if (missing.length) throw new AppError('MODEL_FIELD_MISSING', { field: { list: missing, joiner: 'enumeration' } });
}

/**
 * The columns a model sums must all be in the source: an absent one would sum to 0 and the run would report
 * zeros as 成功 (M5). Named by the label the clerk's file uses (应发工资), with the field name after it.
 */
function requireSummedFields(input: ModelInput, items: readonly (readonly [string, string])[]): void {
  const missing = items.filter(([f]) => !input.fields.includes(f));
  if (missing.length) throw new AppError('MODEL_FIELD_MISSING', { field: { list: missing.map(([f, label]) => `${label}(${f})`), joiner: 'enumeration' } });
}

function monthParam(input: ModelInput): string {
  const raw = input.params.month;
  const month = typeof raw === 'string' && raw.trim() ? raw.trim() : previousMonth(input.today);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new AppError('MODEL_MONTH_INVALID', { month: month.slice(0, 20) });
  return month;
}

const COST_ITEMS = [
  ['gross', '应发工资'],
  ['fiveOne', '个人社保公积金'],
  ['tax', '个人所得税'],
  ['realSalary', '实发工资'],
  ['employerTotal', '单位社保公积金'],
  ['labourCost', '用工成本'],
] as const;

/** 月度人力成本报告: per company headcount and money totals of one salary month, summed in fen. */
export const laborCostModel: BuiltinModel = {
  code: 'laborCost',
  modelName: '月度人力成本报告',
  outputKind: 'xls',
  fileType: 'python',
  parameterInfo: [
    { parameterCode: 'month', parameterName: '月份(yyyy-MM，默认上月)', parameterType: 'String', defaultValue: null },
    { parameterCode: 'companyId', parameterName: '单位ID(可选)', parameterType: 'Interger', defaultValue: null },
  ],
  requires: ['month', 'companyName'],
  async run(input) {
    requireFields(input, ['month', 'companyName']);
    requireSummedFields(input, COST_ITEMS);
    const month = monthParam(input);
    const companyId = input.params.companyId === null || input.params.companyId === undefined ? null : Number(input.params.companyId);
    const byCompany = new Map<string, { head: number; sums: number[] }>();
    const counter = { read: 0 };
    for await (const row of eachRow(input, counter)) {
      if (categoryOf(row.month) !== month) continue;
      if (companyId !== null && Number(row.companyId) !== companyId) continue;
      const company = categoryOf(row.companyName) || '（未填单位）';
      let acc = byCompany.get(company);
      if (!acc) byCompany.set(company, (acc = { head: 0, sums: COST_ITEMS.map(() => 0) }));
      acc.head += 1;
      COST_ITEMS.forEach(([field], i) => {
        (acc as { sums: number[] }).sums[i] += toFen(row[field]) ?? 0;
      });
    }
    const companies = [...byCompany].sort((a, b) => a[0].localeCompare(b[0], 'zh'));
    const total = { head: 0, sums: COST_ITEMS.map(() => 0) };
    const rows: CellValue[][] = companies.map(([name, acc]) => {
      total.head += acc.head;
      acc.sums.forEach((v, i) => {
        total.sums[i] += v;
      });
      return [name, acc.head, ...acc.sums.map(fenToYuan)];
    });
    rows.push(['合计', total.head, ...total.sums.map(fenToYuan)]);
    const cost = COST_ITEMS.findIndex(([f]) => f === 'labourCost');
    return {
      files: [
        {
          name: `人力成本报告_${month}`,
          sheet: { name: month, columns: ['单位名称', '人数', ...COST_ITEMS.map(([, l]) => l)], kinds: ['text', 'int', ...COST_ITEMS.map(() => 'money' as const)], rows },
        },
      ],
      traits: companies
        .map(([name, acc]): [string, number] => [name, fenToYuan(acc.sums[cost])])
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10),
      rowsIn: counter.read,
    };
  },
};

const BASE_FIELDS: [string, string][] = [
  ['yanglaoBase', '养老保险基数'],
  ['yiliaoBase', '医疗保险基数'],
  ['shiyeBase', '失业保险基数'],
  ['gongshangBase', '工伤保险基数'],
  ['shengyuBase', '生育保险基数'],
  ['gjjBase', '公积金基数'],
];
const RATIO_FIELDS = ['yanglaoRatioSelf', 'yanglaoRatioCompany', 'yiliaoRatioSelf', 'yiliaoRatioCompany', 'shiyeRatioSelf', 'shiyeRatioCompany', 'gjjRatio'];

/** Ratio texts compare as numbers ('0.08' equals '0.080000'). */
const sameRatio = (a: unknown, b: string) => Number(categoryOf(a)) === Number(b);

/** 社保基数越界检查: bases outside the census type's floor/ceiling and ratios that differ from its rate dictionary. */
export const siBaseCheckModel: BuiltinModel = {
  code: 'siBaseCheck',
  modelName: '社保基数越界检查',
  outputKind: 'xls',
  fileType: 'python',
  parameterInfo: [{ parameterCode: 'month', parameterName: '月份(yyyy-MM，默认本月)', parameterType: 'String', defaultValue: null }],
  requires: ['censusType', 'staffName'],
  async run(input) {
    requireFields(input, ['censusType', 'staffName']);
    const month = typeof input.params.month === 'string' && input.params.month ? monthParam(input) : input.today.slice(0, 7);
    const staff: Row[] = [];
    const counter = { read: 0 };
    for await (const row of eachRow(input, counter)) {
      // only what the check needs is kept, so a large roster stays small in memory
      const kept: Row = { staffName: row.staffName, idCard: row.idCard, companyName: row.companyName, censusType: row.censusType };
      for (const [f] of BASE_FIELDS) kept[f] = row[f];
      for (const f of RATIO_FIELDS) kept[f] = row[f];
      staff.push(kept);
    }
    const census = [...new Set(staff.map((s) => categoryOf(s.censusType)).filter(Boolean))];
    const limits = input.censusLimits ? await input.censusLimits(month, census) : new Map();
    const out: OutputCell[][] = [];
    const perCompany = new Map<string, number>();
    for (const s of staff) {
      const c = categoryOf(s.censusType);
      const lim = limits.get(c);
      const problems: [string, string, CodedMessage][] = [];
      if (!c) problems.push(['户籍类型', '', { code: 'MODEL_CHECK_CENSUS_BLANK' }]);
      else if (!lim) problems.push(['户籍类型', c, { code: 'MODEL_CHECK_CENSUS_NO_RATES' }]);
      else if ('code' in lim) problems.push(['户籍类型', c, lim]);
      else {
        for (const [f, label] of BASE_FIELDS) {
          const fen = toFen(s[f]);
          const [floor, ceiling] = lim.bases[f] ?? [null, null];
          if (fen === null) continue;
          if (floor !== null && fen < floor) problems.push([label, String(fenToYuan(fen)), { code: 'MODEL_CHECK_BELOW_FLOOR', params: { limit: fenToYuan(floor) } }]);
          else if (ceiling !== null && fen > ceiling) problems.push([label, String(fenToYuan(fen)), { code: 'MODEL_CHECK_ABOVE_CEILING', params: { limit: fenToYuan(ceiling) } }]);
        }
        for (const f of RATIO_FIELDS) {
          const expected = lim.ratios[f];
          if (expected === undefined || categoryOf(s[f]) === '') continue;
          if (!sameRatio(s[f], expected)) problems.push([f, categoryOf(s[f]), { code: 'MODEL_CHECK_RATIO_DIFFERS', params: { ratio: expected } }]);
        }
      }
      for (const [item, value, expected] of problems) {
        out.push([categoryOf(s.companyName), categoryOf(s.staffName), categoryOf(s.idCard), c, item, value, expected]);
        const company = categoryOf(s.companyName) || '（未填单位）';
        perCompany.set(company, (perCompany.get(company) ?? 0) + 1);
      }
    }
    return {
      files: [{ name: `社保基数检查_${month}`, sheet: { name: '越界明细', columns: ['单位名称', '姓名', '身份证号', '户籍类型', '项目', '当前值', '说明'], rows: out } }],
      traits: [...perCompany].sort((a, b) => b[1] - a[1]).slice(0, 10),
      rowsIn: counter.read,
    };
  },
};

/** 工资环比异常: staff whose 应发 or 实发 changed more than the threshold against the previous month; joiners and leavers. */
export const payAnomalyModel: BuiltinModel = {
  code: 'payAnomaly',
  modelName: '工资环比异常',
  outputKind: 'xls',
  fileType: 'python',
  parameterInfo: [
    { parameterCode: 'month', parameterName: '月份(yyyy-MM，默认上月)', parameterType: 'String', defaultValue: null },
    { parameterCode: 'thresholdPct', parameterName: '阈值(%)', parameterType: 'Interger', defaultValue: 30 },
  ],
  requires: ['month', 'idCard'],
  async run(input) {
    requireFields(input, ['month', 'idCard']);
    // 应发 may come as gross (月度工资) or salary (a client's own sheet); 实发 has one name
    requireSummedFields(input, input.fields.includes('salary') ? [['realSalary', '实发工资']] : [['gross', '应发工资'], ['realSalary', '实发工资']]);
    const month = monthParam(input);
    const before = previousMonth(`${month}-01`);
    const threshold = Math.max(Number(input.params.thresholdPct ?? 30) || 0, 0);
    type Pay = { name: string; company: string; gross: number; net: number };
    const cur = new Map<string, Pay>();
    const prev = new Map<string, Pay>();
    const counter = { read: 0 };
    for await (const row of eachRow(input, counter)) {
      const m = categoryOf(row.month);
      const target = m === month ? cur : m === before ? prev : null;
      if (!target) continue;
      const key = `${categoryOf(row.companyName)}\u0000${categoryOf(row.idCard)}`;
      const p = target.get(key) ?? { name: categoryOf(row.staffName), company: categoryOf(row.companyName), gross: 0, net: 0 };
      p.gross += toFen(row.gross ?? row.salary) ?? 0;
      p.net += toFen(row.realSalary) ?? 0;
      target.set(key, p);
    }
    const rows: CellValue[][] = [];
    const changePct = (a: number, b: number) => (a === 0 ? null : Math.round(((b - a) * 10000) / a) / 100);
    for (const [key, p] of cur) {
      const idCard = key.split('\u0000')[1];
      const q = prev.get(key);
      if (!q) {
        rows.push([p.company, p.name, idCard, '新增', null, fenToYuan(p.gross), null, null, fenToYuan(p.net), null]);
        continue;
      }
      const g = changePct(q.gross, p.gross);
      const n = changePct(q.net, p.net);
      if ((g !== null && Math.abs(g) * 100 > threshold * 100) || (n !== null && Math.abs(n) * 100 > threshold * 100)) {
        rows.push([p.company, p.name, idCard, '环比异常', fenToYuan(q.gross), fenToYuan(p.gross), g, fenToYuan(q.net), fenToYuan(p.net), n]);
      }
    }
    for (const [key, q] of prev) {
      if (!cur.has(key)) rows.push([q.company, q.name, key.split('\u0000')[1], '减少', fenToYuan(q.gross), null, null, fenToYuan(q.net), null, null]);
    }
    rows.sort((a, b) => String(a[0]).localeCompare(String(b[0]), 'zh') || String(a[2]).localeCompare(String(b[2])));
    const perCompany = new Map<string, number>();
    for (const r of rows) perCompany.set(String(r[0]), (perCompany.get(String(r[0])) ?? 0) + 1);
    return {
      files: [
        {
          name: `工资环比异常_${month}`,
          sheet: {
            name: `${before}→${month}`,
            columns: ['单位名称', '姓名', '身份证号', '类型', `上月应发`, '本月应发', '应发变化(%)', '上月实发', '本月实发', '实发变化(%)'],
            kinds: ['text', 'text', 'text', 'text', 'money', 'money', 'number', 'money', 'money', 'number'],
            rows,
          },
        },
      ],
      traits: [...perCompany].sort((a, b) => b[1] - a[1]).slice(0, 10),
      rowsIn: counter.read,
    };
  },
};

/** 人员数据质量检查: invalid or duplicate 身份证, missing bank card, contract end before start, 在职 without insurance, age out of 16-60. */
export const dataQualityModel: BuiltinModel = {
  code: 'dataQuality',
  modelName: '人员数据质量检查',
  outputKind: 'xls',
  fileType: 'python',
  parameterInfo: [],
  requires: ['staffName', 'idCard'],
  async run(input) {
    requireFields(input, ['staffName', 'idCard']);
    const seen = new Map<string, number>();
    const out: CellValue[][] = [];
    const perProblem = new Map<string, number>();
    const counter = { read: 0 };
    const add = (row: Row, problem: string, detail: string) => {
      out.push([categoryOf(row.companyName), categoryOf(row.staffName), categoryOf(row.idCard), problem, detail]);
      perProblem.set(problem, (perProblem.get(problem) ?? 0) + 1);
    };
    for await (const row of eachRow(input, counter)) {
      const idCard = categoryOf(row.idCard).toUpperCase();
      const parsed = idCard ? parseIdCard(idCard, input.today) : null;
      if (!parsed?.ok) add(row, '身份证号无效', idCard ? '身份证号码不正确' : '未填写');
      else {
        const n = (seen.get(parsed.idCard) ?? 0) + 1;
        seen.set(parsed.idCard, n);
        if (n === 2) add(row, '身份证号重复', parsed.idCard);
        if (parsed.age > 60 || parsed.age < 16) add(row, '年龄异常', `${parsed.age}岁`);
      }
      if (input.fields.includes('bankcardNumber') && !categoryOf(row.bankcardNumber)) add(row, '缺少银行卡号', '');
      const start = dateOf(row.contractStart);
      const end = dateOf(row.contractEnd);
      if (start && end && end < start) add(row, '合同结束早于开始', `${start} ~ ${end}`);
      if (input.fields.includes('jobState') && categoryOf(row.jobState) === '在职' && input.fields.includes('insuredState') && !categoryOf(row.insuredState)) add(row, '在职未参保', '');
    }
    return {
      files: [{ name: '人员数据质量检查', sheet: { name: '问题清单', columns: ['单位名称', '姓名', '身份证号', '问题', '说明'], rows: out } }],
      traits: [...perProblem].sort((a, b) => b[1] - a[1]).slice(0, 10),
      rowsIn: counter.read,
    };
  },
};

/** 合同到期清单: contracts ending within N days (already ended ones excluded), soonest first, by company. */
export const contractExpiryModel: BuiltinModel = {
  code: 'contractExpiry',
  modelName: '合同到期清单',
  outputKind: 'xls',
  fileType: 'python',
  parameterInfo: [{ parameterCode: 'withinDays', parameterName: '天数内到期', parameterType: 'Interger', defaultValue: 30 }],
  requires: ['contractEnd', 'staffName'],
  async run(input) {
    requireFields(input, ['contractEnd', 'staffName']);
    const within = Math.max(Number(input.params.withinDays ?? 30) || 0, 0);
    const rows: CellValue[][] = [];
    const counter = { read: 0 };
    for await (const row of eachRow(input, counter)) {
      const end = dateOf(row.contractEnd);
      if (!end) continue;
      const days = daysBetween(input.today, end);
      if (days < 0 || days > within) continue;
      rows.push([categoryOf(row.companyName), categoryOf(row.staffName), categoryOf(row.idCard), dateOf(row.contractStart), end, days]);
    }
    rows.sort((a, b) => Number(a[5]) - Number(b[5]) || String(a[0]).localeCompare(String(b[0]), 'zh'));
    const perCompany = new Map<string, number>();
    for (const r of rows) perCompany.set(String(r[0]), (perCompany.get(String(r[0])) ?? 0) + 1);
    return {
      files: [
        {
          name: `合同到期清单_${within}天内`,
          sheet: { name: '到期清单', columns: ['单位名称', '姓名', '身份证号', '合同开始', '合同结束', '剩余天数'], kinds: ['text', 'text', 'text', 'date', 'date', 'int'], rows },
        },
      ],
      traits: [...perCompany].sort((a, b) => b[1] - a[1]).slice(0, 10),
      rowsIn: counter.read,
    };
  },
};
