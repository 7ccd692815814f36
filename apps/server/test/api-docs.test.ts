import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, createRole, createUser, tokenFor, caller } from './system-fixtures.ts';

/**
 * The OpenAPI document (spec §2 "API-docs frame"): generated from the route schemas, valid OpenAPI 3, one
 * operation per registered route with its permission codes, readable by ADMIN or API_DOCS_*, and the local
 * Swagger UI that shows it. API_DOCS_ENABLED=false turns it all off.
 */

let t: TestApp;
let admin: Caller;
type Doc = { openapi: string; paths: Record<string, Record<string, { description?: string; tags?: string[]; parameters?: unknown[]; requestBody?: unknown }>> };
let doc: Doc;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  const res = await admin('GET', '/v3/api-docs');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await t.close();
});

const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\/\*$/, '/{*}');

describe('GET /v3/api-docs', () => {
  it('is a valid OpenAPI 3 document', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every registered API route with the codes that open it', () => {
    const missing: string[] = [];
    const routes = t.app.routeTable.filter((r) => !r.url.startsWith('/api-docs/ui') && r.url !== '/v3/api-docs');
    expect(routes.length).toBeGreaterThan(100);
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) {
        missing.push(`${r.method} ${r.url}`);
        continue;
      }
      if (Array.isArray(r.auth)) for (const code of r.auth) expect(op.description, `${r.method} ${r.url}`).toContain(code);
      else expect(op.description, `${r.method} ${r.url}`).toMatch(r.auth === 'public' ? /公开/ : /已登录/);
    }
    expect(missing).toEqual([]);
  });

  it('describes the generic CRUD from the definitions: filters, bodies, paths', () => {
    const list = doc.paths['/api/accountsStaff'].get;
    const names = (list.parameters as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page', 'size', 'sort', 'staffName', 'companyId']));
    expect(JSON.stringify(doc.paths['/api/accountsStaff'].post.requestBody)).toContain('idCard');
    expect(doc.paths['/api/accountsStaff/{id}'].get).toBeTruthy();
  });

  it('is read by ADMIN or API_DOCS_* only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v3/api-docs' })).statusCode).toBe(401);
    const plain = await createUser(t, { username: 'docs_none', roleIds: [await createRole(t, { name: 'docs_none', level: 3 })] });
    expect((await caller(t, await tokenFor(t, plain))('GET', '/v3/api-docs')).statusCode).toBe(403);
    const reader = await createUser(t, { username: 'docs_reader', roleIds: [await createRole(t, { name: 'docs_reader', level: 3, codes: ['API_DOCS_SELECT'] })] });
    const token = await tokenFor(t, reader);
    expect((await caller(t, token)('GET', '/v3/api-docs')).statusCode).toBe(200);
    expect((await caller(t, token)('GET', '/api-docs/ui/json')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api-docs/ui/json' })).statusCode).toBe(401);
  });

  it('serves the Swagger UI itself locally (no CDN)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api-docs/ui/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await t.app.inject({ method: 'GET', url: '/api-docs/ui/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    const init = await t.app.inject({ method: 'GET', url: '/api-docs/ui/static/swagger-initializer.js' });
    // calls from the UI take the app's session headers (CSRF, or bearer in API mode) from the framing window
    expect(init.body).toContain('__apiDocsHeaders');
  });

  it('every UI address ends at the page, never in a redirect loop (E5)', async () => {
    const addresses = ['/api-docs/ui', '/api-docs/ui/', '/api-docs/ui/?lang=zh', '/api-docs/ui/static/index.html', '/api-docs/ui/static/index.html?x=1', '/api-docs/ui/static/index.html/', '/api-docs/ui/static/index.html/?x=1'];
    for (const start of addresses) {
      let url = start;
      let res = await t.app.inject({ method: 'GET', url });
      for (let hops = 0; hops < 5 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
        const next = new URL(String(res.headers.location), `http://localhost${url}`);
        url = next.pathname + next.search;
        res = await t.app.inject({ method: 'GET', url });
      }
      expect(res.statusCode, `${start} -> ${url}`).toBe(200);
      expect(res.body, start).toContain('swagger-ui-bundle.js');
    }
  });

  it('is off with API_DOCS_ENABLED=false', async () => {
    const off = await createTestApp({ apiDocs: false });
    try {
      const a = await adminCaller(off);
      expect((await a('GET', '/v3/api-docs')).statusCode).toBe(404);
      expect((await a('GET', '/api-docs/ui/')).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
