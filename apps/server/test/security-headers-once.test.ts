import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * core/security.ts makes helmet's headers once and copies them onto every later answer; JSON answers get the
 * API set (API_HEADERS), every other answer the document set.
 */
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
const API_HEADERS = ['content-security-policy', 'cross-origin-resource-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    // answers that set a security header themselves (as avatars and stored files set a stricter CSP)
    app.get('/test/own-csp', { config: { auth: 'public' } }, async (_req, reply) => reply.header('Content-Security-Policy', "default-src 'none'").send('x'));
    app.get('/test/own-json-frame', { config: { auth: 'public' } }, async (_req, reply) => reply.header('X-Frame-Options', 'SAMEORIGIN').send({ ok: true }));
    app.get('/test/page', { config: { auth: 'public' } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><p>x</p>'));
    app.get('/test/raw-json', { config: { auth: 'public' } }, async (_req, reply) => {
      reply.hijack();
      reply.raw.setHeader('Content-Type', 'application/json; charset=utf-8');
      reply.raw.end('{}');
    });
    app.get('/test/raw-head', { config: { auth: 'public' } }, async (_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, ['X-Frame-Options', 'DENY', 'content-type', 'text/plain']);
      reply.raw.end('x');
    });
  });
});
afterAll(async () => {
  await t?.close();
});

describe('security headers made once', () => {
  it('sends the API set on JSON answers and all of helmet’s on pages, the same on the first and every later answer', async () => {
    const seen: Record<string, unknown>[] = [];
    for (const url of ['/auth/publicKey', '/api/users', '/api/nothing-here', '/auth/publicKey', '/api/users']) {
      const res = await t.app.inject({ method: 'GET', url });
      seen.push(Object.fromEntries(HELMET_HEADERS.map((h) => [h, res.headers[h]])));
    }
    for (const h of HELMET_HEADERS) expect(seen[0][h] !== undefined, h).toBe(API_HEADERS.includes(h));
    for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
    const page = await t.app.inject({ method: 'GET', url: '/test/page' });
    for (const h of HELMET_HEADERS) expect(page.headers[h], h).toBeDefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('over HTTP: the same headers in the answer head (SecuredServerResponse), once each; an answer’s own value wins', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const url of ['/auth/publicKey', '/api/users', '/api/nothing-here', '/test/page', '/test/own-json-frame']) {
      const [http, injected] = await Promise.all([fetch(`${base}${url}`), t.app.inject({ method: 'GET', url })]);
      expect(http.status).toBe(injected.statusCode);
      // fetch joins repeated headers with ', ': equal values mean each came once
      for (const h of HELMET_HEADERS) expect(http.headers.get(h) ?? undefined, `${url} ${h}`).toBe(injected.headers[h]);
    }
    const own = await fetch(`${base}/test/own-csp`);
    expect(own.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(own.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const ownJson = await fetch(`${base}/test/own-json-frame`);
    expect(ownJson.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(ownJson.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const raw = await fetch(`${base}/test/raw-head`);
    expect(raw.headers.get('x-frame-options')).toBe('DENY');
    expect(raw.headers.get('referrer-policy')).toBe('same-origin');
    // a content type set with setHeader (Node's own header map) is read too
    const rawJson = await fetch(`${base}/test/raw-json`);
    expect(rawJson.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(rawJson.headers.get('strict-transport-security')).toBeNull();
  });
});
