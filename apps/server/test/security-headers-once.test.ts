import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** core/security.ts makes helmet's headers on the first request and copies them onto every later answer. */
const HELMET_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('security headers made once', () => {
  it('sends all of helmet’s headers, the same on the first and every later answer, found or not, API or page', async () => {
    const seen: Record<string, unknown>[] = [];
    for (const url of ['/auth/publicKey', '/api/users', '/api/nothing-here', '/auth/publicKey', '/api/users']) {
      const res = await t.app.inject({ method: 'GET', url });
      seen.push(Object.fromEntries(HELMET_HEADERS.map((h) => [h, res.headers[h]])));
    }
    for (const h of HELMET_HEADERS) expect(seen[0][h], h).toBeDefined();
    for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
  });
});
