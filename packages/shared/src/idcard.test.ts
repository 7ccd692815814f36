import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idCardCheckDigit, parseIdCard } from './idcard.ts';

const TODAY = '2025-07-01';
const PROVINCES = [11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83, 91];

function reasonOf(value: string, today = TODAY) {
  const r = parseIdCard(value, today);
  return r.ok ? 'OK' : r.reason;
}

describe('parseIdCard fixed examples', () => {
  it('GB 11643 example 11010519491231002X: female, born 1949-12-31', () => {
    expect(parseIdCard('11010519491231002X', TODAY)).toEqual({ ok: true, idCard: '11010519491231002X', sex: '女', born: '1949-12-31', age: 75 });
  });

  it('GB 11643 example 440524188001010014: male, born 1880-01-01', () => {
    const r = parseIdCard('440524188001010014', TODAY);
    expect(r.ok && [r.sex, r.born, r.age]).toEqual(['男', '1880-01-01', 145]);
  });

  it('normalises a lowercase x and surrounding spaces', () => {
    const r = parseIdCard(' 11010519491231002x ', TODAY);
    expect(r.ok && r.idCard).toBe('11010519491231002X');
  });

  it('converts the 15-digit form to 18 digits (19xx birth year)', () => {
    expect(parseIdCard('110105491231002', TODAY)).toEqual({ ok: true, idCard: '11010519491231002X', sex: '女', born: '1949-12-31', age: 75 });
    const r = parseIdCard('440524800101001', TODAY);
    expect(r.ok && [r.idCard, r.sex, r.born]).toEqual([`44052419800101001${idCardCheckDigit('44052419800101001')}`, '男', '1980-01-01']);
  });

  it('rejects with the spec message and a reason', () => {
    expect(parseIdCard('110105194912310021', TODAY)).toEqual({ ok: false, message: '身份证号码不正确', reason: 'CHECK_DIGIT' });
    expect(reasonOf('')).toBe('EMPTY');
    expect(reasonOf('   ')).toBe('EMPTY');
    expect(reasonOf('11010519491231002')).toBe('FORMAT'); // 17 digits
    expect(reasonOf('1101051949123100211')).toBe('FORMAT'); // 19 digits
    expect(reasonOf('1101051949123X0021')).toBe('FORMAT');
    expect(reasonOf('11010519491231002Y')).toBe('FORMAT');
    expect(reasonOf('11010549123100X')).toBe('FORMAT'); // 15-digit form has no check character
    const withCheck = (first17: string) => first17 + idCardCheckDigit(first17);
    expect(reasonOf(withCheck('99010519491231002'))).toBe('REGION');
    expect(reasonOf(withCheck('00010519491231002'))).toBe('REGION');
    expect(reasonOf(withCheck('16010519491231002'))).toBe('REGION');
    expect(reasonOf(withCheck('11010519490230002'))).toBe('BIRTH_DATE'); // 30 February
    expect(reasonOf(withCheck('11010519001301002'))).toBe('BIRTH_DATE'); // month 13
    expect(reasonOf(withCheck('11010519000229002'))).toBe('BIRTH_DATE'); // 1900 is not a leap year
    expect(reasonOf(withCheck('11010520000229002'))).toBe('OK'); // 2000 is
    expect(reasonOf(withCheck('11010517990101002'))).toBe('BIRTH_DATE'); // before 1800
    expect(reasonOf(withCheck('11010520250702002'))).toBe('FUTURE_BIRTH');
    expect(reasonOf(withCheck('11010520250701002'))).toBe('OK'); // born today, age 0
    expect(reasonOf('110105491331002')).toBe('BIRTH_DATE'); // 15-digit, month 13
  });

  it('age counts whole years, the birthday itself included', () => {
    const id = (first17: string) => first17 + idCardCheckDigit(first17);
    const age = (v: string, today: string) => {
      const r = parseIdCard(v, today);
      return r.ok ? r.age : Number.NaN;
    };
    expect(age(id('11010520000615001'), '2025-06-14')).toBe(24);
    expect(age(id('11010520000615001'), '2025-06-15')).toBe(25);
    expect(age(id('11010520000229001'), '2025-02-28')).toBe(24);
    expect(age(id('11010520000229001'), '2025-03-01')).toBe(25);
    expect(age(id('11010520000229001'), '2028-02-29')).toBe(28);
  });

  it('defaults today to the current date in China', () => {
    const r = parseIdCard('11010519491231002X');
    expect(r.ok && r.age).toBeGreaterThanOrEqual(75);
  });

  it('rejects a malformed today and a malformed check-digit input', () => {
    expect(() => parseIdCard('11010519491231002X', '2025-02-30')).toThrow(RangeError);
    expect(() => parseIdCard('11010519491231002X', '20250101')).toThrow(RangeError);
    expect(() => idCardCheckDigit('1101051949123100')).toThrow(RangeError);
    expect(() => idCardCheckDigit('1101051949123100A')).toThrow(RangeError);
  });
});

// ---- property tests -------------------------------------------------------------------------------------

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const arbBirth = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date(`${TODAY}T00:00:00Z`), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const arbParts = fc.record({
  province: fc.constantFrom(...PROVINCES),
  area: fc.integer({ min: 0, max: 9999 }),
  born: arbBirth,
  seq: fc.integer({ min: 0, max: 999 }),
});
const first17Of = (p: { province: number; area: number; born: string; seq: number }) =>
  `${p.province}${pad(p.area, 4)}${p.born.replaceAll('-', '')}${pad(p.seq, 3)}`;

/** Independent age: compare (month, day) as numbers. */
function expectedAge(born: string, today: string): number {
  const [by, bm, bd] = born.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm * 100 + td < bm * 100 + bd ? 1 : 0);
}

/** Independent check character: sum of digit × 2^(17−i) mod 11, then (12 − sum) mod 11 with 10 = X. */
function expectedCheck(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  const v = (12 - (sum % 11)) % 11;
  return v === 10 ? 'X' : String(v);
}

describe('parseIdCard properties', () => {
  it('generated valid IDs round-trip: check digit, birth date, sex parity, age', () => {
    fc.assert(
      fc.property(arbParts, (p) => {
        const first17 = first17Of(p);
        expect(idCardCheckDigit(first17)).toBe(expectedCheck(first17));
        const id = first17 + idCardCheckDigit(first17);
        const r = parseIdCard(id, TODAY);
        expect(r).toEqual({ ok: true, idCard: id, sex: p.seq % 2 === 1 ? '男' : '女', born: p.born, age: expectedAge(p.born, TODAY) });
        const lower = parseIdCard(id.toLowerCase(), TODAY);
        expect(lower.ok && lower.idCard).toBe(id);
      }),
      { numRuns: 1000 },
    );
  });

  it('changing any one character of a valid ID makes it invalid', () => {
    fc.assert(
      fc.property(arbParts, fc.integer({ min: 0, max: 17 }), fc.integer({ min: 1, max: 10 }), (p, pos, shift) => {
        const first17 = first17Of(p);
        const id = first17 + idCardCheckDigit(first17);
        const alphabet = pos === 17 ? '0123456789X' : '0123456789';
        const from = alphabet.indexOf(id[pos]);
        const to = alphabet[(from + (shift % alphabet.length || 1)) % alphabet.length];
        const mutated = id.slice(0, pos) + to + id.slice(pos + 1);
        expect(mutated).not.toBe(id);
        expect(parseIdCard(mutated, TODAY).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('15-digit numbers of 19xx births convert to the matching valid 18-digit number', () => {
    const arb19xx = arbParts.filter((p) => p.born < '2000-01-01');
    fc.assert(
      fc.property(arb19xx, (p) => {
        const old = first17Of(p).slice(0, 6) + first17Of(p).slice(8);
        expect(old).toHaveLength(15);
        const r = parseIdCard(old, TODAY);
        const first17 = first17Of(p);
        expect(r).toEqual({ ok: true, idCard: first17 + expectedCheck(first17), sex: p.seq % 2 === 1 ? '男' : '女', born: p.born, age: expectedAge(p.born, TODAY) });
      }),
      { numRuns: 500 },
    );
  });
});
