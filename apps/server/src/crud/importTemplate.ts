import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { kindOf } from '@app/shared/resource';
import { formatHint } from '../core/excel/columns.ts';

/**
 * The import template of a resource (POST /api/download/<name>, registered in excel.ts): written with ExcelJS
 * because it needs notes, drop-downs and a hidden options sheet, which the streaming writer does not do.
 */

/** The import template: header row with notes, text-formatted columns, drop-downs and a 填写说明 sheet. */
export async function buildTemplate(
  def: ResourceDef,
  fields: FieldDef[],
  dicts: Map<string, { label: string; value: string }[]>,
  extraOptions: Record<string, string[]>,
  derived: ReadonlySet<string>,
  hints: Record<string, string>,
): Promise<Buffer> {
  // loaded for the first template only: the rest of the server writes .xlsx with its own streaming writer
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  wb.creator = 'dispatch-payroll';
  const name = (def.excel?.fileName ?? def.label).slice(0, 31);
  const sheet = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  const help = wb.addWorksheet('填写说明');
  const lists = wb.addWorksheet('选项', { state: 'hidden' });
  help.columns = [
    { header: '列名', width: 22 },
    { header: '是否必填', width: 10 },
    { header: '格式', width: 36 },
    { header: '可选值 / 说明', width: 70 },
  ];
  help.getRow(1).font = { bold: true };
  let listCol = 0;
  fields.forEach((f, i) => {
    const col = sheet.getColumn(i + 1);
    col.width = Math.max(12, Math.min(30, f.label.length * 2 + 6));
    if (kindOf(f).excel.cell === 'text') col.numFmt = '@';
    const required = !!f.required && f.defaultValue === undefined && !derived.has(f.name);
    const cell = sheet.getRow(1).getCell(i + 1);
    cell.value = f.label;
    cell.font = { bold: true, color: { argb: required ? 'FFC00000' : 'FF000000' } };
    const options = kindOf(f).excel.read === 'dict' ? (dicts.get(f.dict ?? '') ?? []).map((e) => e.label) : (extraOptions[f.name] ?? []);
    const notes = [required ? '必填' : f.required ? '可不填，系统自动生成' : '选填', formatHint(f), hints[f.name]].filter(Boolean);
    if (options.length) notes.push(`可选：${options.join('、')}`);
    cell.note = notes.join('\n');
    if (options.length) {
      listCol++;
      const letter = columnLetter(listCol);
      lists.getCell(`${letter}1`).value = f.label;
      options.forEach((o, k) => {
        lists.getCell(`${letter}${k + 2}`).value = o;
      });
      const range = `'选项'!$${letter}$2:$${letter}$${options.length + 1}`;
      const target = columnLetter(i + 1);
      (sheet as unknown as { dataValidations: { add(a: string, v: unknown): void } }).dataValidations.add(`${target}2:${target}5001`, {
        type: 'list',
        allowBlank: true,
        showErrorMessage: true,
        errorTitle: '无效的值',
        error: `请从下拉列表中选择${f.label}`,
        formulae: [range],
      });
    }
    help.addRow([f.label, required ? '是' : f.required ? '自动' : '否', formatHint(f), [hints[f.name], options.join('、')].filter(Boolean).join('；')]);
  });
  help.addRow([]);
  help.addRow(['说明', '', '', '第一行为列名，请勿修改；数据从第二行开始。日期可填 2024-01-31 或使用 Excel 日期格式。']);
  if (def.excel?.importKey?.length) {
    const keyLabels = def.excel.importKey.map((n) => def.fields.find((f) => f.name === n)?.label ?? n).join('+');
    help.addRow(['重复导入', '', '', `${keyLabels}相同的行会更新已有数据，空白单元格保留原值。`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}
