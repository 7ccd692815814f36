import { describe, expect, it } from 'vitest';
import { calculateEmployerContributions, calculatePersonalContributions, clampBase, PayrollInputError, type PayrollRates } from './index.ts';
import { fen, sameBases, vectorRates } from './testFixtures.ts';

describe('clampBase', () => {
  it('clamps to floor and ceiling, either may be absent', () => {
    expect(clampBase(100, 200, 300)).toBe(200);
    expect(clampBase(400, 200, 300)).toBe(300);
    expect(clampBase(250, 200, 300)).toBe(250);
    expect(clampBase(100, null, 300)).toBe(100);
    expect(clampBase(400, 200)).toBe(400);
  });
});

describe('calculatePersonalContributions', () => {
  it('clamps each item to its own floor (Beijing 2009: pension floor 40%, medical floor 60%)', () => {
    const rates: PayrollRates = {
      ...vectorRates(),
      yanglao: { ratioSelf: '0.08', ratioCompany: '0.2', floor: fen(1490) },
      yiliao: { ratioSelf: '0.02', ratioCompany: '0.09', floor: fen(2236) },
    };
    const r = calculatePersonalContributions(sameBases(fen(1000)), rates);
    expect(r.yanglao).toBe(fen(119.2));
    expect(r.yiliao).toBe(fen(44.72) + 300);
    expect(r.shiye).toBe(fen(5));
    expect(r.gongjijin).toBe(fen(120));
    expect(r.socialInsurance).toBe(r.yanglao + r.yiliao + r.shiye);
    expect(r.fiveOne).toBe(r.socialInsurance + r.gongjijin);
  });

  it('housing fund rounds to whole yuan by default, social insurance to the fen', () => {
    const r = calculatePersonalContributions(sameBases(fen(35811)), vectorRates());
    expect(r.gongjijin).toBe(fen(4297)); // 4 297.32
    expect(r.shiye).toBe(fen(179.06)); // 179.055 half-up
  });

  it('per-item rounding rule overrides the default (Shanghai SI 见分进角, HF to the fen)', () => {
    const base = vectorRates();
    const rates: PayrollRates = {
      ...base,
      shiye: { ...base.shiye, rounding: { scale: 1, mode: 'UP' } },
      gongjijin: { ...base.gongjijin, rounding: { scale: 2, mode: 'HALF_UP' } },
      yiliaoFixedSelf: 0,
    };
    const r = calculatePersonalContributions(sameBases(fen(35811)), rates);
    expect(r.shiye).toBe(fen(179.1));
    expect(r.gongjijin).toBe(fen(4297.32));
    expect(r.yiliao).toBe(fen(716.22));
  });

  it('a zero ratio (rural hukou unemployment) gives 0', () => {
    const rates = { ...vectorRates(), shiye: { ratioSelf: 0, ratioCompany: '0.005' } };
    expect(calculatePersonalContributions(sameBases(fen(8000)), rates).shiye).toBe(0);
  });
});

describe('calculateEmployerContributions', () => {
  it('payroll-rules.md §3.5 bill: 1 280 + 784 + 40 + 32 + 960 = 3 096.00', () => {
    const r = calculateEmployerContributions(sameBases(fen(8000)), vectorRates());
    expect(r).toEqual({
      yanglao: fen(1280),
      yiliao: fen(784),
      shiye: fen(40),
      gongshang: fen(32),
      shengyu: 0,
      gongjijin: fen(960),
      total: fen(3096),
    });
  });

  it('uses the employer medical base, clamps per item and charges maternity when configured', () => {
    const rates: PayrollRates = { ...vectorRates({ ceiling: fen(35811) }), shengyu: { ratioCompany: '0.008', ceiling: fen(35811) } };
    const r = calculateEmployerContributions({ ...sameBases(fen(40000)), yiliaoSelf: fen(1) }, rates);
    expect(r.yanglao).toBe(fen(5729.76));
    expect(r.yiliao).toBe(fen(3509.48)); // 35 811 × 9.8% = 3 509.478
    expect(r.shengyu).toBe(fen(286.49)); // 286.488
    expect(r.gongjijin).toBe(fen(4297));
    expect(r.total).toBe(r.yanglao + r.yiliao + r.shiye + r.gongshang + r.shengyu + r.gongjijin);
  });

  it('requires the work-injury base when its rate is configured', () => {
    const { gongshang: _omit, ...bases } = sameBases(fen(8000));
    expect(() => calculateEmployerContributions(bases, vectorRates())).toThrow(PayrollInputError);
  });
});
