import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyResource } from '@app/shared/resources/company';
import { staffResource } from '@app/shared/resources/staff';
import { changeLanguage, i18n, initI18n } from '../app/i18n';
import { fieldRules } from '../crud/fields';

/**
 * Findings W9: "1 rows" / "1 filas". The texts that count something are looked up with `count`, so i18next
 * picks the `_one` form for 1 in English and Spanish; Chinese and Japanese have one form for every number.
 */

beforeAll(async () => {
  await initI18n('zh');
});
afterAll(async () => {
  await changeLanguage('zh');
});

const t = (key: string, opts: Record<string, unknown>) => i18n.t(key, opts) as string;

describe('plural forms', () => {
  it('en: one record, two records; one row imported, one salary row', async () => {
    await changeLanguage('en');
    expect(t('crud:total', { count: 1 })).toBe('1 record');
    expect(t('crud:total', { count: 2 })).toBe('2 records');
    expect(t('crud:importDialog.result', { count: 1, total: 1, saved: 1, inserted: 1, updated: 0, failed: 0 })).toBe('1 row: 1 saved (added 1, updated 0), 0 not saved');
    expect(t('crud:importDialog.result', { count: 3, total: 3, saved: 3, inserted: 1, updated: 2, failed: 0 })).toMatch(/^3 rows: 3 saved /);
    expect(t('salary:lockedDetail', { who: 'Li', time: '2026-11-20 08:30', count: 1 })).toContain(', 1 row.');
    expect(t('salary:lockedDetail', { who: 'Li', time: '2026-11-20 08:30', count: 0 })).toContain(', 0 rows.');
    expect(t('accounts:dashboard.count', { count: 1 })).toBe('1 contract ending soon');
  });

  it('es: 1 fila, 2 filas; 1 registro', async () => {
    await changeLanguage('es');
    expect(t('crud:total', { count: 1 })).toBe('1 registro');
    expect(t('crud:total', { count: 25 })).toBe('25 registros');
    expect(t('crud:importDialog.warnings', { count: 1 })).toMatch(/^1 fila se importó/);
    expect(t('crud:importDialog.warnings', { count: 2 })).toMatch(/^2 filas se importaron/);
    expect(t('salary:regenerateConfirm', { rows: 1, count: 1 })).toMatch(/^Este mes ya tiene 1 fila de salario\./);
  });

  it('zh and ja: one wording for every number', async () => {
    await changeLanguage('zh');
    expect(t('crud:total', { count: 1 })).toBe('共 1 条');
    expect(t('crud:total', { count: 2 })).toBe('共 2 条');
    await changeLanguage('ja');
    expect(t('crud:total', { count: 1 })).toBe('全 1 件');
  });
});

describe('a field label inside a sentence (W9 "Enter Company name")', () => {
  it('is lower-cased in en and es, acronyms kept; zh untouched', async () => {
    await changeLanguage('en');
    expect(t('crud:inputPlaceholder', { label: 'Company name' })).toBe('Enter company name');
    expect(t('crud:selectPlaceholder', { label: 'Service type' })).toBe('Choose service type');
    expect(t('crud:inputPlaceholder', { label: 'ID card number' })).toBe('Enter ID card number');
    await changeLanguage('es');
    expect(t('crud:inputPlaceholder', { label: 'Nombre de la empresa' })).toBe('Introduzca nombre de la empresa');
    await changeLanguage('zh');
    expect(t('crud:inputPlaceholder', { label: '单位名称' })).toBe('请输入单位名称');
  });
});

/** The message a dialog shows for `value` in field `name` of `def`. */
async function formMessage(def: { name: string; fields: { name: string }[] }, name: string, value: unknown): Promise<string> {
  const field = def.fields.find((f) => f.name === name) as Parameters<typeof fieldRules>[0];
  const rule = fieldRules(field, def.name)[0] as { validator: (r: unknown, v: unknown) => Promise<void> };
  try {
    await rule.validator({}, value);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('form validation messages in the UI language (W9)', () => {
  it('en, es, ja: the shared Chinese messages are rendered through the error catalogue; zh unchanged', async () => {
    await changeLanguage('zh');
    expect(await formMessage(companyResource, 'companyName', '')).toBe('请输入单位名称');
    await changeLanguage('en');
    const en = await formMessage(companyResource, 'companyName', '');
    expect(en).toMatch(/^Please enter /);
    expect(en).not.toMatch(/\p{Script=Han}/u);
    expect(await formMessage(staffResource, 'staffName', '')).not.toMatch(/\p{Script=Han}/u);
    await changeLanguage('es');
    expect(await formMessage(companyResource, 'companyName', '')).toMatch(/^Introduzca /);
    await changeLanguage('ja');
    expect(await formMessage(companyResource, 'companyName', '')).toMatch(/を入力してください$/);
    await changeLanguage('zh');
  });
});
