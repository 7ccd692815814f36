import { zhText } from './errors/zodIssues.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idCardCheckDigit } from './idcard.ts';
import {
  basesFromCompany,
  CONTRACT_WARN_DAYS_BEFORE_END,
  contractDatesError,
  contractWarnDate,
  fromIdCard,
  gongshangRatioOf,
  ratiosFromRateDictionary,
} from './staffDerivations.ts';

const withCheck = (first17: string) => first17 + idCardCheckDigit(first17);

describe('fromIdCard', () => {
  it('reads sex from the 17th digit (odd male, even female), the birth date and the age on a given day', () => {
    const male = withCheck('11010119900307001');
    const female = withCheck('11010119900307002');
    expect(fromIdCard(male, '2024-03-06')).toEqual({ sex: '男', born: '1990-03-07', age: 33 });
    expect(fromIdCard(male, '2024-03-07')).toEqual({ sex: '男', born: '1990-03-07', age: 34 });
    expect(fromIdCard(female, '2024-12-31')).toEqual({ sex: '女', born: '1990-03-07', age: 34 });
  });

  it('accepts the old 15-digit form and a lowercase x check character', () => {
    expect(fromIdCard('110101900307001', '2024-01-01')).toEqual({ sex: '男', born: '1990-03-07', age: 33 });
    // find a number whose check character is X
    let id = '';
    for (let s = 100; s < 999 && !id; s++) {
      const c = withCheck(`11010119850101${s}`);
      if (c.endsWith('X')) id = c;
    }
    expect(fromIdCard(id.toLowerCase(), '2024-01-01')?.born).toBe('1985-01-01');
  });

  it('returns null for a wrong check digit, a bad date, wrong length or no value', () => {
    const good = withCheck('11010119900307001');
    const badCheck = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    expect(fromIdCard(badCheck)).toBeNull();
    expect(fromIdCard(withCheck('11010119900230001'))).toBeNull();
    expect(fromIdCard('1101011990')).toBeNull();
    expect(fromIdCard('')).toBeNull();
    expect(fromIdCard(null)).toBeNull();
    expect(fromIdCard(undefined)).toBeNull();
  });

  it('agrees with the check digit for any valid birth date and sequence (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1940-01-01T00:00:00Z'), max: new Date('2010-12-31T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 999 }), (d, seq) => {
        const born = d.toISOString().slice(0, 10);
        const id = withCheck(`440305${born.replace(/-/g, '')}${String(seq).padStart(3, '0')}`);
        const facts = fromIdCard(id, '2024-06-30');
        expect(facts?.born).toBe(born);
        expect(facts?.sex).toBe(seq % 2 === 1 ? '男' : '女');
        expect(facts!.age).toBeGreaterThanOrEqual(13);
      }),
    );
  });
});

describe('ratiosFromRateDictionary', () => {
  it('takes the ratio entries labelled by staff field names and ignores floors, amounts and junk', () => {
    const entries = [
      { label: 'yanglaoRatioCompany', value: '0.16' },
      { label: 'yanglaoRatioSelf', value: ' 0.08 ' },
      { label: 'yiliaoRatioCompany', value: '0.098' },
      { label: 'yiliaoRatioSelf', value: '0.02' },
      { label: 'yiliaoFixedSelf', value: '3' },
      { label: 'shiyeRatioCompany', value: '0.005' },
      { label: 'shiyeRatioSelf', value: '0' },
      { label: 'shengyuRatioCompany', value: '0' },
      { label: 'gjjRatio', value: '0.12' },
      { label: 'baseFloor', value: '7162' },
      { label: 'gongshangRatioCompany', value: '0.5' },
      { label: 'effectiveMonth', value: '2025-07' },
    ];
    expect(ratiosFromRateDictionary(entries)).toEqual({
      yanglaoRatioCompany: 0.16,
      yanglaoRatioSelf: 0.08,
      yiliaoRatioCompany: 0.098,
      yiliaoRatioSelf: 0.02,
      shiyeRatioCompany: 0.005,
      shiyeRatioSelf: 0,
      shengyuRatioCompany: 0,
      gjjRatio: 0.12,
    });
  });

  it('skips values that are not a decimal between 0 and 1', () => {
    expect(ratiosFromRateDictionary([{ label: 'gjjRatio', value: '12%' }])).toEqual({});
    expect(ratiosFromRateDictionary([{ label: 'gjjRatio', value: '1.2' }])).toEqual({});
    expect(ratiosFromRateDictionary([{ label: 'gjjRatio', value: '-0.1' }])).toEqual({});
    expect(ratiosFromRateDictionary([{ label: 'gjjRatio', value: '0.1234567' }])).toEqual({});
    expect(ratiosFromRateDictionary([])).toEqual({});
  });
});

describe('basesFromCompany', () => {
  const dispatch = [
    { label: '北京华派人力资源有限公司', value: '0.004' },
    { label: '北京众信劳务派遣有限公司', value: '0.002' },
  ];
  const company = {
    dispatchCompany: '北京众信劳务派遣有限公司',
    gjjBase: 8000,
    yanglaoBase: 7162,
    yilaoBase: 7162.5,
    yilaoBaseSelf: null,
    shiyeBase: 7162,
    gongshangBase: 7162,
    shengyuBase: 7162,
    gongshangRatioCompany: 0.009,
  };

  it('copies the six bases (company spelling yilao -> staff yiliao) and the ratio of the dispatch company by label', () => {
    expect(basesFromCompany(company, dispatch)).toEqual({
      gjjBase: 8000,
      yanglaoBase: 7162,
      yiliaoBase: 7162.5,
      yiliaoBaseSelf: 7162.5,
      shiyeBase: 7162,
      gongshangBase: 7162,
      shengyuBase: 7162,
      gongshangRatioCompany: 0.002,
    });
  });

  it('keeps a personal medical base of its own and falls back to the stored ratio for an unknown dispatch company', () => {
    const r = basesFromCompany({ ...company, yilaoBaseSelf: 9000, dispatchCompany: '不在字典里' }, dispatch);
    expect(r.yiliaoBaseSelf).toBe(9000);
    expect(r.gongshangRatioCompany).toBe(0.009);
  });

  it('leaves out what the company does not have', () => {
    expect(basesFromCompany({}, dispatch)).toEqual({});
    expect(gongshangRatioOf(null, dispatch)).toBeNull();
    expect(gongshangRatioOf(' 北京华派人力资源有限公司 ', dispatch)).toBe(0.004);
  });
});

describe('contractWarnDate', () => {
  it('is 30 days before the end date by default, across month and year ends and leap days', () => {
    expect(CONTRACT_WARN_DAYS_BEFORE_END).toBe(30);
    expect(contractWarnDate('2025-03-31')).toBe('2025-03-01');
    expect(contractWarnDate('2024-03-01')).toBe('2024-01-31');
    expect(contractWarnDate('2025-01-15')).toBe('2024-12-16');
    expect(contractWarnDate('2024-03-30')).toBe('2024-02-29');
    expect(contractWarnDate('2025-06-30', 7)).toBe('2025-06-23');
  });

  it('is null for anything that is not a real YYYY-MM-DD date', () => {
    expect(contractWarnDate('2025-02-30')).toBeNull();
    expect(contractWarnDate('2025/03/31')).toBeNull();
    expect(contractWarnDate('')).toBeNull();
    expect(contractWarnDate(null)).toBeNull();
  });

  it('always lies the given number of days before the end (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 365 }), (d, days) => {
        const end = d.toISOString().slice(0, 10);
        const warn = contractWarnDate(end, days)!;
        expect((Date.parse(end) - Date.parse(warn)) / 86_400_000).toBe(days);
      }),
    );
  });
});

describe('contractDatesError', () => {
  it('refuses a start after the end and accepts equal dates or a missing side', () => {
    expect(zhText(contractDatesError('2025-02-01', '2025-01-31')!)).toBe('合同开始日期不能晚于结束日期');
    expect(contractDatesError('2025-01-31', '2025-01-31')).toBeNull();
    expect(contractDatesError(null, '2025-01-31')).toBeNull();
    expect(contractDatesError('2025-01-31', undefined)).toBeNull();
  });
});
