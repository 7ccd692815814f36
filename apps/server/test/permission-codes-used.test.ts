import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES, PERMISSION_GROUPS } from '@app/shared/permissions';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * W5: the permission tree offered codes for screens that did not exist (REDIS_ALL, JOB_ALL, PICTURE_ALL). Every
 * shipped code must open at least one registered route, so a code in the tree always grants something real.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('shipped permission codes', () => {
  it('each opens at least one route', () => {
    const used = new Set<string>();
    for (const r of t.app.routeTable) if (Array.isArray(r.auth)) for (const code of r.auth) used.add(code);
    // ADMIN passes every check by itself and guards the log routes; it is not a screen's code
    const unused = ALL_PERMISSION_CODES.filter((c) => c !== 'ADMIN' && !used.has(c));
    expect(unused).toEqual([]);
  });

  it('each group names a prefix the routes use (no group for a screen that does not exist)', () => {
    const prefixes = new Set<string>();
    for (const r of t.app.routeTable) if (Array.isArray(r.auth)) for (const code of r.auth) prefixes.add(code.replace(/_[A-Z]+$/, ''));
    expect(PERMISSION_GROUPS.map((g) => g.prefix).filter((p) => !prefixes.has(p))).toEqual([]);
  });
});
