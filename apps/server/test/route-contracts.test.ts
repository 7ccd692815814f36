import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeOrigin } from '../src/crud/registerContract.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 21 item 1: every API route comes from a shared contract (packages/shared/src/contracts, registered with
 * `routeContract`) or from a resource definition (`registerResource`). The routes still stated by hand are listed in
 * fixtures/routes-without-contract.json, and that list may only shrink: a new hand-written route fails here, and so
 * does a listed route that has meanwhile got its contract (or is gone), so the list stays the true backlog.
 */
const BACKLOG_FILE = path.join(import.meta.dirname, 'fixtures', 'routes-without-contract.json');
const backlog: string[] = JSON.parse(fs.readFileSync(BACKLOG_FILE, 'utf8'));

/**
 * Framework routes, not product endpoints: the OpenAPI document and the Swagger UI that serves it
 * (crud/apiDocs.ts, @fastify/swagger and @fastify/swagger-ui register them). They describe the contracts rather
 * than being one, answer no product data and cannot be stated with `routeContract`; the API docs test covers them.
 * Listed here, not in the backlog, so that the backlog counts only what is left to convert.
 */
const FRAMEWORK_ROUTES = [
  'GET /v3/api-docs',
  'GET /api-docs/ui',
  'GET /api-docs/ui/json',
  'GET /api-docs/ui/yaml',
  'GET /api-docs/ui/static/*',
  'GET /api-docs/ui/static/index.html',
  'GET /api-docs/ui/static/swagger-initializer.js',
  'GET /api-docs/ui/static/theme/app.css',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('route contracts', () => {
  it('has a contract or a definition for every API route but the listed backlog, and the backlog is current', () => {
    const routes = t.app.routeTable.map((r) => ({ key: `${r.method} ${r.url}`, origin: routeOrigin(t.app, r.method, r.url) }));
    const byHand = routes.filter((r) => !r.origin && !FRAMEWORK_ROUTES.includes(r.key)).map((r) => r.key);
    const unlisted = byHand.filter((k) => !backlog.includes(k));
    expect(unlisted, 'new hand-written routes: state them as contracts in packages/shared/src/contracts and register them with routeContract').toEqual([]);
    const stale = backlog.filter((k) => !byHand.includes(k));
    expect(stale, 'these routes have a contract now (or are gone): remove them from fixtures/routes-without-contract.json').toEqual([]);
  });

  it('lists only framework routes that exist and have no contract', () => {
    const keys = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    expect(FRAMEWORK_ROUTES.filter((k) => !keys.has(k)), 'framework routes no longer registered').toEqual([]);
    expect(FRAMEWORK_ROUTES.filter((k) => backlog.includes(k)), 'framework routes are not backlog').toEqual([]);
    expect(FRAMEWORK_ROUTES.filter((k) => k.startsWith('GET ') && routeOrigin(t.app, 'GET', k.slice(4))), 'framework routes with a contract').toEqual([]);
  });

  it('registers contract routes with the guard and schemas the contract states', async () => {
    const entry = t.app.routeTable.find((r) => r.method === 'PUT' && r.url === '/api/notices/read');
    expect(entry?.auth).toBe('user');
    expect(routeOrigin(t.app, 'PUT', '/api/notices/read')).toBe('contract');
    const bad = await t.app.inject({ method: 'PUT', url: '/api/notices/read', payload: { ids: ['x'] } });
    expect(bad.statusCode).toBe(401);
  });
});
