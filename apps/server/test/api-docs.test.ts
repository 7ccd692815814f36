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

  it('lists its tags in menu order, the session endpoints first (U25)', async () => {
    const tags = ((doc as unknown as { tags: { name: string }[] }).tags ?? []).map((x) => x.name);
    const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
    expect(new Set(tags)).toEqual(used);
    expect(tags.slice(0, 3)).toEqual(['登录', '首页', '首页统计']);
    const at = (tag: string) => tags.indexOf(tag);
    // 派遣业务 › 薪资管理 › 工资条 › 人事档案 › 数据管理 › 系统管理 › 系统监控 › 系统工具, as the sidebar
    const sidebar = ['单位', '员工', '员工加班扣款', '月度工资', '工资确认记录', '期初累计数据', '专项附加扣除', '专项附加扣除标准', '工资条', '入职记录', '模型管理', '用户', '角色', '字典', '字典详情', '日志', '缓存管理', '定时任务', '存储管理', '图床管理', 'SQL监控', '支付宝工具'];
    for (const tag of sidebar) expect(at(tag), tag).toBeGreaterThan(0);
    expect(sidebar.map(at)).toEqual([...sidebar.map(at)].sort((a, b) => a - b));
    // the Swagger UI reads the same order
    expect((await admin('GET', '/api-docs/ui/json')).json().tags.map((x: { name: string }) => x.name)).toEqual(tags);
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
    // U25: no Fastify-branded top bar with its "Explore" box
    const css = /href="([^"]*theme\/app\.css)"/.exec(page.body)?.[1];
    expect(css).toBeTruthy();
    const theme = await t.app.inject({ method: 'GET', url: new URL(String(css), 'http://localhost/api-docs/ui/').pathname });
    expect(theme.statusCode).toBe(200);
    expect(theme.body).toContain('.topbar { display: none; }');
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
