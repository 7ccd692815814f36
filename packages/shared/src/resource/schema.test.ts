import { zhText } from '../errors/zodIssues.ts';
import { describe, expect, it } from 'vitest';
import { staffResource } from '../resources/staff.ts';
import { FIELD_KINDS, toApiValue, toDbValue } from './kinds.ts';
import { INT_MAX, yuanToFenExact } from './valueRules.ts';
import { type RowOf, schemaOf, validateField, validateRecord } from './schema.ts';
import type { FieldDef, FieldKind } from './types.ts';

const f = (kind: FieldKind, extra: Partial<FieldDef> = {}): FieldDef => ({ name: 'x', label: '字段', kind, ...extra });
const msg = (field: FieldDef, raw: unknown) => {
  const r = validateField(field, raw);
  return r.ok ? null : r.message;
};

describe('FIELD_KINDS', () => {
  it('has one entry per kind, each with an input schema, an API schema, a column type, Excel and web behaviour', () => {
    for (const [kind, spec] of Object.entries(FIELD_KINDS)) {
      expect(spec.input(f(kind as FieldKind)), kind).toBeTruthy();
      expect(spec.api, kind).toBeTruthy();
      // every kind has a column type but the link-table one (refMany), which has no column
      if (kind === 'refMany') expect(spec.sql).toBeNull();
      else expect(spec.sql, kind).toBeTruthy();
      expect(spec.excel.read, kind).toBeTruthy();
      expect(spec.web.control, kind).toBeTruthy();
    }
  });

  it('refMany takes [{id}] or [id] (ids as numbers or digits), distinct, and refuses anything else', () => {
    const tags = f('refMany', { label: '标签' });
    const ok = (raw: unknown) => validateField(tags, raw);
    expect(ok([{ id: 3 }, { id: '1' }, 3])).toEqual({ ok: true, value: [3, 1] });
    expect(ok([])).toEqual({ ok: true, value: [] });
    expect(ok(null)).toEqual({ ok: true, value: null });
    for (const bad of ['1', { id: 1 }, [{ id: 0 }], [{ id: 1.5 }], [{}], [INT_MAX + 1], [[1]]]) expect(msg(tags, bad), JSON.stringify(bad)).toBe('标签格式不正确，应为 [{id}]');
    expect(msg(tags, Array.from({ length: 2001 }, (_, i) => i + 1))).toBe('一次最多提交2000项');
    expect(msg({ ...tags, required: '请选择标签' }, undefined)).toBe('请选择标签');
  });

  it('money is converted in one place: yuan on the wire, integer fen stored', () => {
    const money = f('money');
    expect(toDbValue(money, 0.29)).toBe(29);
    expect(toDbValue(money, '1234.5')).toBe(123450);
    expect(toDbValue(money, -12.3)).toBe(-1230);
    expect(toApiValue(money, 17906)).toBe(179.06);
    expect(toApiValue(money, '100')).toBe(1);
    expect(yuanToFenExact(1.15)).toBe(115);
    expect(toDbValue(f('bool'), true)).toBe(1);
    expect(toApiValue(f('bool'), 1)).toBe(true);
  });
});

describe('messages (the spec texts)', () => {
  it('keeps every kind message word for word', () => {
    expect(msg(f('string', { maxLength: 3 }), 'abcd')).toBe('字段长度不能超过3个字符');
    expect(msg(f('string'), { a: 1 })).toBe('字段必须是文本');
    expect(msg(f('email'), 'bad@')).toBe('请输入正确的邮箱地址');
    expect(msg(f('phone'), 'x')).toBe('字段格式不正确');
    expect(msg(f('idCard'), '110105194912310021')).toBe('身份证号码不正确');
    expect(msg(f('int'), '1.5')).toBe('字段必须是整数');
    expect(msg(f('int', { min: 1 }), 0)).toBe('字段不能小于1');
    expect(msg(f('money'), 'abc')).toBe('字段必须是数字');
    expect(msg(f('money'), '1.234')).toBe('字段最多两位小数');
    expect(msg(f('money'), 1e10)).toBe('字段金额过大');
    expect(msg(f('money'), -1)).toBe('字段不能小于0');
    expect(msg(f('ratio'), 1.5)).toBe('字段必须在0到1之间');
    expect(msg(f('ratio'), '0.1234567')).toBe('字段最多六位小数');
    expect(msg(f('date'), '2024-02-30')).toBe('字段日期格式应为YYYY-MM-DD');
    expect(msg(f('month'), '2024-13')).toBe('字段月份格式应为YYYY-MM');
    expect(msg(f('bool'), 'maybe')).toBe('字段必须是是或否');
    expect(msg(f('ref'), -3)).toBe('字段无效');
    expect(msg(f('string', { required: '请输入字段' }), '  ')).toBe('请输入字段');
    expect(msg(f('string', { required: true }), null)).toBe('字段不能为空');
  });

  it('normalises values as before', () => {
    expect(validateField(f('int'), '1,000')).toEqual({ ok: true, value: 1000 });
    expect(validateField(f('bool'), '0')).toEqual({ ok: true, value: false });
    expect(validateField(f('idCard'), '11010519491231002x')).toEqual({ ok: true, value: '11010519491231002X' });
    expect(validateField(f('date'), ' 2024-01-31T10:00 ')).toEqual({ ok: true, value: '2024-01-31' });
    expect(validateField(f('string'), 12)).toEqual({ ok: true, value: '12' });
  });
});

describe('storage bounds (finding S3)', () => {
  it('ids and references stay within 1..2^31-1 and refuse exponents and objects', () => {
    const ref = f('ref');
    expect(validateField(ref, INT_MAX)).toEqual({ ok: true, value: INT_MAX });
    for (const bad of [INT_MAX + 1, '2147483648', 1e308, '1e+308', '99999999999999999999', 0, 1.5, { toString: 'x' }, [1], true]) {
      expect(msg(ref, bad), JSON.stringify(bad)).toBe('字段无效');
    }
  });

  it('integers stay within the 32-bit range; NUL characters are refused in texts', () => {
    expect(msg(f('int'), 2147483648)).toBe('字段不能大于2147483647');
    expect(msg(f('int'), -2147483649)).toBe('字段不能小于-2147483648');
    expect(msg(f('int'), '1e+3')).toBe('字段必须是整数');
    expect(msg(f('string'), 'a\u0000b')).toBe('字段不能包含空字符');
  });

  it('filters refuse NUL characters and over-long values', () => {
    const q = schemaOf(staffResource, 'query');
    const first = (r: ReturnType<typeof q.safeParse>) => (r.success ? null : r.error.issues[0].message);
    expect(first(q.safeParse({ staffName: '\u0000' }))).toBe('姓名筛选值无效');
    expect(first(q.safeParse({ companyId: '2147483648' }))).toMatch(/^所属单位筛选值无效/);
    expect(first(q.safeParse({ staffName: 'x'.repeat(101) }))).toBe('姓名筛选值过长');
    expect(first(q.safeParse({ page: '-1' }))).toBe('page 必须是不小于0的整数');
    expect(first(q.safeParse({ sort: 'nope,asc' }))).toBe('不支持的排序字段: nope');
    expect(q.parse({ staffName: '张', companyId: '3', extra: 'kept' })).toEqual({ staffName: '张', companyId: 3, extra: 'kept' });
  });
});

describe('schemaOf', () => {
  it('create/update bodies: unknown and read-only keys dropped, defaults on create, id required on update', () => {
    const create = validateRecord(staffResource, { staffName: '张三', sex: '男', bogus: 1 }, 'create');
    expect(zhText(create.errors.companyId)).toBe('请选择所属单位');
    expect('sex' in create.errors).toBe(false);
    const def = { name: 't', table: 't', permission: 'T', label: '测试', fields: [f('string', { name: 'a', required: true }), f('int', { name: 'b', defaultValue: 7 }), f('date', { name: 'c', readOnly: true })] };
    expect(zhText(validateRecord(def, { a: 'x' }, 'update').errors.id)).toBe('ID不能为空');
    expect(validateRecord(def, { id: 5, a: 'x', c: '2024-01-01' }, 'update')).toEqual({ value: { id: 5, a: 'x' }, errors: {} });
    expect(validateRecord(def, { a: 'x' }, 'create')).toEqual({ value: { a: 'x', b: 7 }, errors: {} });
    expect(zhText(validateRecord(def, { id: 2147483648, a: 'x' }, 'update').errors.id)).toBe('ID无效');
    expect(zhText(validateRecord(staffResource, [], 'create').errors._)).toBe('请求体必须是JSON对象');
  });

  it('RowOf gives the API row type of a definition', () => {
    const row: RowOf<typeof staffResource> = schemaOf(staffResource, 'row').parse({ id: 1, staffName: '张三', salary: 10.5, companyId: 2 });
    const name: string | null = row.staffName;
    const salary: number | null = row.salary;
    expect([name, salary]).toEqual(['张三', 10.5]);
  });
});
