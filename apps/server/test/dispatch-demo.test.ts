import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRecord } from '@app/shared/resource';
import { parseIdCard } from '@app/shared/idcard';
import { staffResource } from '@app/shared/resources/staff';
import { seedDemoData } from '../src/seed/demo.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo data', () => {
  it('seeds 3 companies and 30 valid staff once, with contracts near expiry, and is idempotent', async () => {
    const first = await seedDemoData(t.app.ctx.db, t.app.ctx.dialect, '2025-06-15');
    expect(first).toEqual({ companies: 3, staff: 30, extras: 6 });
    expect(await seedDemoData(t.app.ctx.db, t.app.ctx.dialect, '2025-06-15')).toEqual({ companies: 0, staff: 0, extras: 0 });
    const token = await adminToken(t.app);
    const list = (await t.app.inject({ method: 'GET', url: '/api/accountsStaff?size=100', headers: bearer(token) })).json();
    expect(list.totalElements).toBe(30);
    for (const s of list.content) {
      expect(parseIdCard(s.idCard, '2025-06-15').ok).toBe(true);
      const { errors } = validateRecord(staffResource, s, 'create');
      expect(errors, s.staffName).toEqual({});
    }
    const soon = list.content.filter((s: { contractEnd: string }) => s.contractEnd >= '2025-06-15' && s.contractEnd <= '2025-07-20');
    expect(soon.length).toBeGreaterThanOrEqual(5);
    expect(list.content.some((s: { contractWarnState: string }) => s.contractWarnState === '已提醒')).toBe(true);
    const companies = (await t.app.inject({ method: 'GET', url: '/api/accountsCompany/all', headers: bearer(token) })).json();
    expect(companies.totalElements).toBe(3);
    expect(companies.content.every((c: { gongshangRatioCompany: number }) => c.gongshangRatioCompany > 0)).toBe(true);
  });
});
