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
    const byHand = routes.filter((r) => !r.origin).map((r) => r.key);
    const unlisted = byHand.filter((k) => !backlog.includes(k));
    expect(unlisted, 'new hand-written routes: state them as contracts in packages/shared/src/contracts and register them with routeContract').toEqual([]);
    const stale = backlog.filter((k) => !byHand.includes(k));
    expect(stale, 'these routes have a contract now (or are gone): remove them from fixtures/routes-without-contract.json').toEqual([]);
  });

  it('registers contract routes with the guard and schemas the contract states', async () => {
    const entry = t.app.routeTable.find((r) => r.method === 'PUT' && r.url === '/api/notices/read');
    expect(entry?.auth).toBe('user');
    expect(routeOrigin(t.app, 'PUT', '/api/notices/read')).toBe('contract');
    const bad = await t.app.inject({ method: 'PUT', url: '/api/notices/read', payload: { ids: ['x'] } });
    expect(bad.statusCode).toBe(401);
  });
});
