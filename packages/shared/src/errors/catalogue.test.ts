import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../language.ts';
import { translateDefinitionLabel } from '../resources/labels.ts';
import { codeOfMessage, ERROR_CATALOGUE, type ErrorCode, renderError } from './catalogue.ts';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('error catalogue', () => {
  it('has every message in zh, en, es and ja with the same parameters and a 4xx/5xx status', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      for (const { code: lng } of LANGUAGES) {
        expect(entry[lng].trim().length, `${code}.${lng}`).toBeGreaterThan(0);
        expect(placeholders(entry[lng]), `${code}.${lng}`).toEqual(placeholders(entry.zh));
      }
      // the translations are translations: no Chinese left in en/es (ja shares kanji, so it is not checked)
      for (const lng of ['en', 'es'] as const) expect(entry[lng], `${code}.${lng}`).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('renders parameters, and finds the code and parameters of a rendered Chinese message', () => {
    expect(renderError('DUPLICATE', { resource: '单位' }, 'zh')).toBe('单位已存在');
    expect(renderError('FIELD_TOO_LONG', { label: 'Name', max: 50 }, 'en')).toBe('Name may have at most 50 characters');
    expect(codeOfMessage('用户名已存在')).toEqual({ code: 'USERNAME_TAKEN', params: {} });
    expect(codeOfMessage('员工姓名长度不能超过50个字符')).toEqual({ code: 'FIELD_TOO_LONG', params: { label: '员工姓名', max: '50' } });
    // the more specific template wins over a shorter one that also matches
    expect(codeOfMessage('单位不存在或无权访问: 7,8')?.code).toBe('RECORDS_NOT_FOUND');
    expect(codeOfMessage('单位不存在或无权访问')?.code).toBe('RECORD_NOT_FOUND');
    expect(codeOfMessage('没有这样的消息')).toBeNull();
  });

  it('round-trips every Chinese template: rendering the parameters read back gives the same text', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      // a code that only carries a definition's sentence ('{text}') is never read back from text
      if (ERROR_CATALOGUE[code].zh === '{text}') continue;
      const params = Object.fromEntries(placeholders(ERROR_CATALOGUE[code].zh).map((p, i) => [p, `值${i}`]));
      const zh = renderError(code, params, 'zh');
      const found = codeOfMessage(zh);
      expect(found, code).not.toBeNull();
      expect(renderError(found!.code, found!.params, 'zh'), code).toBe(zh);
    }
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
