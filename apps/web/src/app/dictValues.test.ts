import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en/dictValues.json';
import es from '../locales/es/dictValues.json';
import ja from '../locales/ja/dictValues.json';
import { renderValue } from '../crud/fields';
import { translateDicts, translateDictValue } from './dict';
import { changeLanguage, initI18n } from './i18n';

/** U26: dictionary values in the UI language; stored values unchanged. */

const keysOf = (bundle: Record<string, Record<string, string>>) => Object.entries(bundle).flatMap(([name, values]) => Object.keys(values).map((v) => `${name}.${v}`)).sort();

describe('dictionary values in the UI language (U26)', () => {
  beforeAll(async () => {
    await initI18n('zh');
  });
  afterAll(async () => {
    await changeLanguage('zh');
  });

  it('translates labels by dictionary name and stored value, keeping the value', async () => {
    const dicts = { sex: [{ label: '男', value: '男' }], census_type: [{ label: '本农', value: 'bennong' }], fee_type: [{ label: '固定金额', value: '固定金额' }], custom: [{ label: '自定义', value: 'x' }] };
    expect(translateDicts(dicts)).toEqual(dicts);
    await changeLanguage('en');
    const en = translateDicts(dicts);
    expect(en.sex[0]).toEqual({ label: 'Male', value: '男' });
    expect(en.census_type[0]).toEqual({ label: 'Local rural', value: 'bennong' });
    expect(en.fee_type[0].label).toBe('Fixed amount');
    // a dictionary an administrator added keeps its own label
    expect(en.custom[0].label).toBe('自定义');
    await changeLanguage('ja');
    expect(translateDictValue('job_state', '在职', '在职')).toBe('在職');
    expect(translateDictValue('service_type', '人事代理', '人事代理')).toBe('人事代行');
    // 民族 is free text: the common ones are translated where shown
    expect(renderValue({ name: 'nation', kind: 'string', label: '民族' }, '汉族', {}, {})).toBe('漢族');
    expect(renderValue({ name: 'nation', kind: 'string', label: '民族' }, '其他', {}, {})).toBe('其他');
  });

  it('has the same dictionaries and values in en, es and ja', () => {
    expect(keysOf(es)).toEqual(keysOf(en));
    expect(keysOf(ja)).toEqual(keysOf(en));
    for (const name of ['sex', 'census_type', 'job_state', 'service_type', 'fee_type', 'insure_type', 'contract_type', 'tax_deduction_rule']) expect(Object.keys(en)).toContain(name);
  });
});
