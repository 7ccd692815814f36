import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../language.ts';
import { translateDefinitionLabel } from '../resources/labels.ts';
import { type CodedList, ERROR_CATALOGUE, renderError } from './catalogue.ts';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('error catalogue', () => {
  it('has every message in zh, en, es and ja with the same parameters and a 4xx/5xx status (200 for a success message)', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      if (entry.status !== 200) {
        expect(entry.status, code).toBeGreaterThanOrEqual(400);
        expect(entry.status, code).toBeLessThan(600);
      }
      for (const { code: lng } of LANGUAGES) {
        expect(entry[lng].trim().length, `${code}.${lng}`).toBeGreaterThan(0);
        expect(placeholders(entry[lng]), `${code}.${lng}`).toEqual(placeholders(entry.zh));
      }
      // the translations are translations: no Chinese left in en/es (ja shares kanji, so it is not checked)
      for (const lng of ['en', 'es'] as const) expect(entry[lng], `${code}.${lng}`).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('renders parameters, and a nested message in the same language with the same label translator', () => {
    expect(renderError('DUPLICATE', { resource: '单位' }, 'zh')).toBe('单位已存在');
    expect(renderError('FIELD_TOO_LONG', { label: 'Name', max: 50 }, 'en')).toBe('Name may have at most 50 characters');
    const reason = { code: 'FIELD_INTEGER' as const, params: { label: '上级部门' } };
    expect(renderError('FILTER_INVALID_REASON', { label: '上级部门', reason }, 'zh')).toBe('上级部门筛选值无效: 上级部门必须是整数');
    expect(renderError('FILTER_INVALID_REASON', { label: '上级部门', reason }, 'en', translateDefinitionLabel)).toBe(
      'Invalid filter value for Parent department: Parent department must be an integer',
    );
  });

  it('renders a list parameter entry by entry in the same language, joined in that language', () => {
    const rows: CodedList = {
      list: [
        { code: 'IMPORT_ROW_CELL_PROBLEM', params: { row: 2, label: '身份证号', reason: { code: 'PAYSLIP_IMPORT_DUPLICATE_ROW', params: { row: 1 } } } },
        { code: 'IMPORT_ROW_PROBLEM', params: { row: 3, reason: { code: 'PAYSLIP_IMPORT_NAME_BLANK' } } },
      ],
      joiner: 'semicolon',
    };
    expect(renderError('PAYSLIP_IMPORT_ROWS', { count: 2, rows }, 'zh')).toBe('2行数据有误，未导入任何数据：第2行“身份证号”：与第1行重复（月份+身份证号相同）；第3行：未填名称');
    expect(renderError('PAYSLIP_IMPORT_ROWS', { count: 2, rows }, 'en', translateDefinitionLabel)).toBe(
      '2 rows are wrong; nothing was imported: Row 2, "ID card no.": Duplicates row 1 (same month and ID card); Row 3: no name',
    );
    // a plain entry is the user's data, kept as it is
    expect(renderError('SIADJUST_RECON_NOT_STAFF', { names: { list: ['张三', 'Li Si'], joiner: 'enumeration' } }, 'en')).toBe(
      '张三, Li Si is not on the staff of this company; the difference cannot go into the payroll',
    );
  });

  it("renders a definition's own sentence in Chinese as it is and elsewhere with the definitions' translations", () => {
    const text = (lng: 'zh' | 'en' | 'es' | 'ja', sentence: string) => renderError('FIELD_REQUIRED_TEXT', { text: sentence }, lng, translateDefinitionLabel);
    expect(text('zh', '请输入员工姓名')).toBe('请输入员工姓名');
    expect(text('en', '请输入员工姓名')).toBe('Please enter Name');
    expect(text('ja', '请选择所属单位')).toBe('所属取引先を選択してください');
    expect(renderError('DUPLICATE_TEXT', { text: '单位名称已存在' }, 'es', translateDefinitionLabel)).toBe('El nombre de la empresa ya existe');
    // a text no definition has stays as it is
    expect(text('es', '自由文本')).toBe('自由文本');
  });
});
