import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';

/**
 * The hand-written lists' name searches go through core/db.ts `likeContains`: what the user types is taken
 * literally. Before, each escaped `%` and `_` with a backslash by hand, which SQLite's LIKE does not read as an
 * escape (it has no default escape character), so a search for `_100%` matched nothing there.
 */
let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
  const now = nowIso();
  for (const name of ['like_rate_100%', 'likeXrateY100Z']) {
    await t.app.ctx.db
      .insertInto('analysis_model')
      .values({ model_name: name, site: `https://example.com/${encodeURIComponent(name)}`, file_type: 'csv', output_kind: 'xls', create_time: now, update_time: now })
      .execute();
    await t.app.ctx.db.insertInto('custom_datasource').values({ name, dataset: '[]', character_encoding: 'UTF-8', create_time: now }).execute();
  }
});
afterAll(async () => {
  await t.close();
});

const names = (body: { content: Record<string, unknown>[] }, key: string) => body.content.map((r) => r[key]).sort();

describe('hand-written list search takes % and _ literally', () => {
  it('models: only the name with the literal _ and %', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/ModelManageMent/getModelList?pageNumber=1&pageSize=50&modelName=${encodeURIComponent('_rate_100%')}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res.json(), 'modelName')).toEqual(['like_rate_100%']);
    expect(res.json().totalElements).toBe(1);
    const both = await t.app.inject({ method: 'GET', url: `/ModelManageMent/getModelList?pageNumber=1&pageSize=50&modelName=like`, headers: admin });
    expect(names(both.json(), 'modelName')).toEqual(['likeXrateY100Z', 'like_rate_100%']);
  });

  it('custom data sources: the same', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/customDatasource/list?pageNumber=1&pageSize=50&name=${encodeURIComponent('_rate_100%')}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(names(res.json(), 'name')).toEqual(['like_rate_100%']);
    expect(res.json().totalElements).toBe(1);
  });
});
