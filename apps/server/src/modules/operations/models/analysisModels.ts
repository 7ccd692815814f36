import { AppError } from '../../../core/errors.ts';
import { categoryOf, eachRow, fenToYuan, percent, toFen } from './numbers.ts';
import type { BuiltinModel, CellValue, ModelInput, OutputFile } from './types.ts';

const BLANK = '（空）';

function requireField(input: ModelInput, field: string | null | undefined, code: 'MODEL_PROPERTY_REQUIRED' | 'MODEL_FIELD_MISSING'): string {
  if (!field) throw new AppError('MODEL_PROPERTY_REQUIRED');
  if (!input.fields.includes(field)) throw new AppError(code === 'MODEL_PROPERTY_REQUIRED' ? 'MODEL_FIELD_MISSING' : code, { field });
  return field;
}

/**
 * 单特征分布（单例）: how often each value of one field (the task's filter condition) occurs, with share and
 * cumulative share; a second workbook per company when the source has 单位名称 (companyName).
 */
export const distributionModel: BuiltinModel = {
  code: 'distribution',
  modelName: '单特征分布（单例）',
  outputKind: 'xls_single',
  fileType: 'python',
  parameterInfo: [
    { parameterCode: 'topN', parameterName: '图表取前N项', parameterType: 'Interger', defaultValue: 10 },
    { parameterCode: 'includeBlank', parameterName: '统计空值', parameterType: 'Boolean', defaultValue: false },
  ],
  async run(input) {
    const field = requireField(input, input.property, 'MODEL_PROPERTY_REQUIRED');
    const includeBlank = input.params.includeBlank === true;
    const topN = Math.min(Math.max(Number(input.params.topN ?? 10) || 10, 1), 10);
    // a custom source of our roster names the column by its label (单位名称); a CSV may use either
    const companyField = ['companyName', '单位名称'].find((f) => f !== field && input.fields.includes(f)) ?? null;
    const byCompany = companyField !== null;
    const counts = new Map<string, number>();
    const perCompany = new Map<string, Map<string, number>>();
    const counter = { read: 0 };
    let counted = 0;
    for await (const row of eachRow(input, counter)) {
      let value = categoryOf(row[field]);
      if (value === '') {
        if (!includeBlank) continue;
        value = BLANK;
      }
      counted += 1;
      counts.set(value, (counts.get(value) ?? 0) + 1);
      if (byCompany) {
        const company = categoryOf(row[companyField as string]) || BLANK;
        let m = perCompany.get(company);
        if (!m) perCompany.set(company, (m = new Map()));
        m.set(value, (m.get(value) ?? 0) + 1);
      }
    }
    // most frequent first, ties by value so that the output is deterministic
    const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh'));
    let cumulative = 0;
    const rows: CellValue[][] = sorted.map(([value, n]) => {
      cumulative += n;
      return [value, n, percent(n, counted), percent(cumulative, counted)];
    });
    rows.push(['合计', counted, counted ? 100 : 0, null]);
    const files: OutputFile[] = [
      { name: `${field}分布`, sheet: { name: '分布', columns: [field, '数量', '占比(%)', '累计占比(%)'], kinds: ['text', 'int', 'number', 'number'], rows } },
    ];
    if (byCompany) {
      const companyRows: CellValue[][] = [];
      for (const company of [...perCompany.keys()].sort((a, b) => a.localeCompare(b, 'zh'))) {
        const m = perCompany.get(company) as Map<string, number>;
        const total = [...m.values()].reduce((a, b) => a + b, 0);
        for (const [value, n] of [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh'))) companyRows.push([company, value, n, percent(n, total)]);
      }
      files.push({ name: `${field}分布_按单位`, sheet: { name: '按单位', columns: ['单位名称', field, '数量', '单位内占比(%)'], kinds: ['text', 'text', 'int', 'number'], rows: companyRows } });
    }
    return { files, traits: sorted.slice(0, topN), rowsIn: counter.read };
  },
};

type Measure = { kind: 'count' } | { kind: 'sum' | 'avg'; field: string };

function parseMeasure(text: unknown, fields: string[]): Measure {
  const s = typeof text === 'string' ? text.trim() : '';
  if (s === '' || s === 'count') return { kind: 'count' };
  // field names of CSV and Excel sources are usually Chinese (月薪): any non-blank name, checked against the fields
  const m = /^(sum|avg):\s*(\S(?:.*\S)?)$/u.exec(s);
  if (!m) throw new AppError('MODEL_MEASURE_INVALID', { measure: s.slice(0, 50) });
  if (!fields.includes(m[2])) throw new AppError('MODEL_FIELD_MISSING', { field: m[2] });
  return { kind: m[1] as 'sum' | 'avg', field: m[2] };
}

/**
 * 交叉特征分析: a row field × a column field, counting rows or summing/averaging a numeric field exactly (in
 * hundredths), with row and column totals. Traits are the row totals.
 */
export const crosstabModel: BuiltinModel = {
  code: 'crosstab',
  modelName: '交叉特征分析',
  outputKind: 'xls_muti',
  fileType: 'python',
  parameterInfo: [
    { parameterCode: 'rowField', parameterName: '行字段', parameterType: 'String', defaultValue: 'companyName' },
    { parameterCode: 'colField', parameterName: '列字段', parameterType: 'String', defaultValue: 'education' },
    { parameterCode: 'measure', parameterName: '度量(count/sum:字段/avg:字段)', parameterType: 'String', defaultValue: 'count' },
  ],
  async run(input) {
    const rowField = requireField(input, String(input.params.rowField ?? ''), 'MODEL_FIELD_MISSING');
    const colField = requireField(input, String(input.params.colField ?? ''), 'MODEL_FIELD_MISSING');
    const measure = parseMeasure(input.params.measure, input.fields);
    // cell key -> [sum in hundredths, count]
    const cells = new Map<string, [number, number]>();
    const rowKeys = new Set<string>();
    const colKeys = new Set<string>();
    const counter = { read: 0 };
    for await (const row of eachRow(input, counter)) {
      const r = categoryOf(row[rowField]) || BLANK;
      const c = categoryOf(row[colField]) || BLANK;
      let amount = 1;
      if (measure.kind !== 'count') {
        const fen = toFen(row[measure.field]);
        if (fen === null) continue;
        amount = fen;
      }
      rowKeys.add(r);
      colKeys.add(c);
      const key = `${r}\u0000${c}`;
      const cell = cells.get(key) ?? [0, 0];
      cell[0] += amount;
      cell[1] += 1;
      cells.set(key, cell);
    }
    const cols = [...colKeys].sort((a, b) => a.localeCompare(b, 'zh'));
    const show = ([sum, n]: [number, number]): number => {
      if (measure.kind === 'count') return sum;
      if (measure.kind === 'sum') return fenToYuan(sum);
      if (!n) return 0;
      // average in fen, half-up away from zero, on integers
      const avg = Math.floor((2 * Math.abs(sum) + n) / (2 * n));
      return fenToYuan(sum < 0 ? -avg : avg);
    };
    const colTotals = new Map<string, [number, number]>();
    const grand: [number, number] = [0, 0];
    const rowsOut: CellValue[][] = [];
    const rowTotals: [string, number][] = [];
    for (const r of [...rowKeys].sort((a, b) => a.localeCompare(b, 'zh'))) {
      const total: [number, number] = [0, 0];
      const line: CellValue[] = [r];
      for (const c of cols) {
        const cell = cells.get(`${r}\u0000${c}`) ?? [0, 0];
        line.push(show(cell));
        total[0] += cell[0];
        total[1] += cell[1];
        const ct = colTotals.get(c) ?? [0, 0];
        ct[0] += cell[0];
        ct[1] += cell[1];
        colTotals.set(c, ct);
      }
      grand[0] += total[0];
      grand[1] += total[1];
      line.push(show(total));
      rowsOut.push(line);
      rowTotals.push([r, show(total)]);
    }
    rowsOut.push(['合计', ...cols.map((c) => show(colTotals.get(c) ?? [0, 0])), show(grand)]);
    const label = measure.kind === 'count' ? '数量' : `${measure.kind === 'sum' ? '合计' : '平均'}${measure.field}`;
    const kind: 'int' | 'money' = measure.kind === 'count' ? 'int' : 'money';
    const file: OutputFile = {
      name: `${rowField}×${colField}_${label}`,
      sheet: { name: '交叉表', columns: [`${rowField}\\${colField}`, ...cols, '合计'], kinds: ['text', ...cols.map(() => kind), kind], rows: rowsOut },
    };
    const traits = rowTotals.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh')).slice(0, 10);
    return { files: [file], traits, rowsIn: counter.read };
  },
};
