import { RESOURCES } from '@app/shared/resources/index';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/core/plugins/auth.ts';
import { createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';

/**
 * Fuzz of every route in the route table (issue 9, S3): bodies, query strings and path parameters generated
 * from the route's declared schema when it has one (zod or JSON schema), else from the resource definition
 * behind `/api/<resource>`, else from a pool of the API's common names, mixed with hostile values (huge and
 * non-finite numbers, NUL bytes, objects and arrays where scalars belong, 1e6-character strings, prototype
 * keys). Seeded and time-bounded (FUZZ_SECONDS, default 75 s per database). Asserts:
 * - no answer >= 500 and no answer carries a stack trace;
 * - a 4xx writes no row (row counts of every table but the operation log, before and after).
 * A failure lists route, input and the server's exception so it can be fixed directly.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
// SQLite gets the longer budget; the PostgreSQL and MariaDB runs fuzz every route too, with fewer requests each
// (what differs there is the database's own refusals, which the first requests of a route already reach).
const BUDGET_MS = Number(process.env.FUZZ_SECONDS ?? (TEST_DB === 'sqlite' ? 60 : 30)) * 1000;

const protoBody = (inner: Record<string, unknown>) => JSON.parse(`{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"x":${JSON.stringify(inner)}}`);
const HUGE_TEXT = 'x'.repeat(1_000_000);

/** Scalars and shapes that break naive handlers. */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2147483647,
  2147483648,
  -2147483649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  "' OR '1'='1",
  '1e308',
  '2147483648',
  '-1',
  'NaN',
  'Infinity',
  '0x10',
  '１２３',
  '😀𠀀',
  '2024-02-30',
  '2024-13',
  '9999-99-99T99:99',
  HUGE_TEXT,
  {},
  [],
  [1, 2],
  { toString: 'x' },
  { id: {} },
  [[[[[]]]]],
  JSON.parse('{"__proto__":{"polluted":true}}'),
];
const hostile = fc.constantFrom(...HOSTILE_VALUES);
/** Hostile values that fit in a URL (no 1e6 characters, no objects). */
const HOSTILE_STRINGS = ['', '0', '-1', '1.5', '2147483648', '9007199254740993', '1e308', '-1e308', 'NaN', '\u0000', 'a\u0000b', '%00', "' OR '1'='1", 'x'.repeat(5000), '😀', '2024-13', 'null', 'undefined', '[]', '{}', 'asc', 'id,desc', ',', 'id,sideways', 'constructor', '__proto__'];
const hostileString = fc.constantFrom(...HOSTILE_STRINGS);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const dateArb = fc.tuple(fc.integer({ min: 1990, max: 2035 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`);
const monthArb = fc.tuple(fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${pad(m)}`);
const idArb = fc.integer({ min: 1, max: 8 });

/** A plausible value of a field kind (valid or nearly). */
function validish(f: FieldDef): fc.Arbitrary<unknown> {
  switch (f.kind) {
    case 'int':
      return fc.integer({ min: f.min ?? -5, max: Math.min(f.max ?? Number.MAX_SAFE_INTEGER, (f.min ?? -5) + 1000) });
    case 'money':
      return fc.oneof(fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100), fc.constantFrom('12.34', '0', '-5', '1.234'));
    case 'ratio':
      return fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('0.08', '8%', '1.5'));
    case 'date':
      return dateArb;
    case 'month':
      return monthArb;
    case 'datetime':
      return dateArb.map((d) => `${d}T08:00:00Z`);
    case 'bool':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', '是', '否'));
    case 'ref':
      return fc.oneof(idArb, idArb.map(String));
    case 'idCard':
      return fc.constantFrom('11010519491231002X', '110105194912310021', '123');
    case 'phone':
      return fc.constantFrom('13812345678', '010-12345678', 'abc');
    case 'email':
      return fc.constantFrom('a@example.com', 'not-an-email');
    default:
      return fc.string({ maxLength: Math.min(f.maxLength ?? 30, 30) });
  }
}

const fieldValue = (f: FieldDef) => fc.oneof({ weight: 4, arbitrary: validish(f) }, { weight: 1, arbitrary: hostile });

/** Names the hand-written routes read from bodies and query strings. */
const COMMON_NAMES = ['id', 'ids', 'pid', 'name', 'username', 'password', 'oldPass', 'newPass', 'email', 'code', 'uuid', 'type', 'value', 'companyId', 'month', 'menus', 'permissions', 'depts', 'roles', 'dataScope', 'level', 'dictName', 'enabled', 'page', 'size', 'sort', 'blurry', 'label', 'rows', 'file', 'rememberMe'];
const anyValue = fc.oneof({ weight: 2, arbitrary: fc.oneof(idArb, fc.string({ maxLength: 12 }), monthArb, fc.array(fc.record({ id: idArb }), { maxLength: 3 }), fc.array(idArb, { maxLength: 3 })) }, { weight: 1, arbitrary: hostile });
const commonBody = fc.dictionary(fc.constantFrom(...COMMON_NAMES), anyValue, { maxKeys: 6 });

/** JSON schema -> arbitrary (the subset route schemas use; anything else gets any value). */
function fromJsonSchema(s: Record<string, any> | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 4) return anyValue;
  const mixed = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: hostile });
  if (s.enum) return mixed(fc.constantFrom(...(s.enum as unknown[])));
  if (s.const !== undefined) return mixed(fc.constant(s.const));
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...(alternatives as Record<string, any>[]).map((a) => fromJsonSchema(a, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, any>).map(([k, v]) => [k, fromJsonSchema(v, depth + 1)]));
      return mixed(fc.record(props, { requiredKeys: [] }));
    }
    case 'array':
      return mixed(fc.array(fromJsonSchema(s.items, depth + 1), { maxLength: 4 }));
    case 'integer':
      return mixed(fc.integer({ min: s.minimum ?? -5, max: Math.min(s.maximum ?? Number.MAX_SAFE_INTEGER, (s.minimum ?? -5) + 1000) }));
    case 'number':
      return mixed(fc.double({ min: s.minimum ?? -1000, max: Math.min(s.maximum ?? Number.MAX_VALUE, (s.minimum ?? -1000) + 2000), noNaN: true }));
    case 'boolean':
      return mixed(fc.boolean());
    case 'string':
      return mixed(s.format === 'date' ? dateArb : fc.string({ maxLength: Math.min(s.maxLength ?? 30, 30) }));
    default:
      return anyValue;
  }
}

/** A route schema part as JSON schema: zod schemas are converted, JSON schemas used as they are. */
function jsonSchemaOf(part: unknown): Record<string, any> | undefined {
  if (!part || typeof part !== 'object') return undefined;
  const z = part as { toJSONSchema?: () => unknown; _zod?: unknown };
  if (z._zod) {
    try {
      // zod 4: z.toJSONSchema(schema); schemas also expose it through their constructor's module
      return (globalThis as { __zodToJson?: (s: unknown) => Record<string, any> }).__zodToJson?.(part);
    } catch {
      return undefined;
    }
  }
  return part as Record<string, any>;
}

const resourceOf = (url: string): ResourceDef | undefined => {
  const m = /^\/api\/(?:import\/|export\/|download\/)?([A-Za-z]+)/.exec(url);
  return m ? RESOURCES[m[1]] : undefined;
};

function bodyArb(route: RouteEntry): fc.Arbitrary<unknown> {
  const declared = jsonSchemaOf(route.schema?.body);
  const def = resourceOf(route.url);
  let shaped: fc.Arbitrary<unknown> = commonBody;
  if (declared) shaped = fromJsonSchema(declared);
  else if (def && route.method === 'DELETE') shaped = fc.array(fc.oneof(idArb, hostile), { maxLength: 4 });
  else if (def) {
    const writable = def.fields.filter((f) => !f.readOnly);
    const record = fc.record(Object.fromEntries(writable.map((f) => [f.name, fieldValue(f)])), { requiredKeys: [] });
    shaped = route.method === 'PUT' ? fc.tuple(record, fc.oneof(idArb, hostile)).map(([r, id]) => ({ ...(r as object), id })) : record;
  }
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: shaped.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? protoBody(b as Record<string, unknown>) : b)) },
  );
}

function queryArb(route: RouteEntry): fc.Arbitrary<[string, string][]> {
  const declared = jsonSchemaOf(route.schema?.querystring);
  const def = resourceOf(route.url);
  const names = new Set(['page', 'size', 'sort', 'blurry', ...COMMON_NAMES.slice(0, 12)]);
  for (const f of def?.fields ?? []) names.add(f.name);
  for (const k of Object.keys(declared?.properties ?? {})) names.add(k);
  const valueArb = fc.oneof(fc.string({ maxLength: 10 }), idArb.map(String), monthArb, dateArb, hostileString);
  return fc.array(fc.tuple(fc.constantFrom(...names), valueArb), { maxLength: 5 });
}

function pathArb(url: string): fc.Arbitrary<string> {
  const parts = url.split('/').map((seg) => {
    if (seg === '*') return fc.oneof(fc.constantFrom('a.png', '../../etc/passwd', 'x'), hostileString).map((s) => encodeURIComponent(s));
    if (!seg.startsWith(':')) return fc.constant(seg);
    return fc.oneof(idArb.map(String), hostileString, fc.string({ minLength: 1, maxLength: 8 })).map((s) => encodeURIComponent(s || '1'));
  });
  return fc.tuple(...parts).map((p) => p.join('/'));
}

interface Finding {
  route: string;
  request: string;
  status: number;
  problem: string;
}

describe(`fuzz of every route (${TEST_DB})`, () => {
  let t: TestApp;
  let token: string;
  let tables: string[] = [];
  const exceptions: unknown[] = [];
  let restoreLog: (() => void) | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    try {
      const { z } = await import('zod');
      (globalThis as { __zodToJson?: (s: unknown) => unknown }).__zodToJson = (s) => z.toJSONSchema(s as never, { unrepresentable: 'any', io: 'input' });
    } catch {
      // no zod: schemas that are zod are generated like undeclared ones
    }
    tables = (await t.app.ctx.db.introspection.getTables())
      .map((x) => x.name)
      // logs written after the answer or by background runs (a job started by an earlier request finishing now)
      .filter((n) => n !== 'sys_log' && n !== 'sys_job_log' && !n.startsWith('kysely_'))
      .sort();
    // the error handler logs unexpected errors through the (null) logger: keep them for the report
    const log = t.app.log as unknown as { error: (...a: unknown[]) => void };
    const original = log.error;
    log.error = (obj: unknown) => {
      exceptions.push((obj as { err?: unknown })?.err ?? obj);
    };
    restoreLog = () => {
      log.error = original;
    };
  });
  afterAll(async () => {
    restoreLog?.();
    await t?.close();
  });

  async function rowCounts(): Promise<string> {
    const parts = tables.map((name) => sql`SELECT ${sql.lit(name)} AS t, COUNT(*) AS n FROM ${sql.table(name)}`);
    const res = await sql<{ t: string; n: number }>`${sql.join(parts, sql` UNION ALL `)}`.execute(t.app.ctx.db);
    return res.rows.map((r) => `${r.t}=${Number(r.n)}`).join(' ');
  }

  it(
    'answers no request with >= 500 or a stack trace, and writes no row on a 4xx',
    async () => {
      const routes = t.app.routeTable.filter((r) => r.method !== 'OPTIONS');
      expect(routes.length).toBeGreaterThan(50);
      const findings: Finding[] = [];
      const started = Date.now();
      let requests = 0;
      let counts = await rowCounts();
      for (const [i, route] of routes.entries()) {
        // every route gets its share of the time left, and at least a handful of requests
        const share = (BUDGET_MS - (Date.now() - started)) / (routes.length - i);
        const routeStart = Date.now();
        const samples = fc.sample(
          fc.record({ path: pathArb(route.url), query: queryArb(route), body: bodyArb(route) }),
          { numRuns: 60, seed: SEED + i },
        );
        for (const [n, input] of samples.entries()) {
          if (n >= 5 && Date.now() - routeStart > share) break;
          const qs = input.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          const url = qs ? `${input.path}?${qs}` : input.path;
          const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
          const payload = hasBody ? JSON.stringify(input.body ?? null) : undefined;
          const describeRequest = () => `${route.method} ${url.slice(0, 300)}${payload ? ` ${payload.slice(0, 300)}` : ''}`;
          exceptions.length = 0;
          let status: number;
          let body = '';
          try {
            const res = await t.app.inject({
              method: route.method as 'GET',
              url,
              headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
              payload,
            });
            status = res.statusCode;
            body = res.body;
          } catch (err) {
            status = 599;
            exceptions.push(err);
          }
          requests++;
          const problems: string[] = [];
          if (status >= 500) problems.push(`${status}: ${exceptions.map((e) => String((e as Error)?.stack ?? e).split('\n').slice(0, 3).join(' | ')).join(' // ') || body.slice(0, 200)}`);
          if (/\n\s+at |"stack"/.test(body)) problems.push('stack trace in the answer');
          const after = await rowCounts();
          if (status >= 400 && status < 500 && after !== counts) problems.push(`${status} but rows changed: ${diffCounts(counts, after)}`);
          counts = after;
          if (problems.length) findings.push({ route: `${route.method} ${route.url}`, request: describeRequest(), status, problem: problems.join('; ') });
          // a logout (or a lucky password change) ends the session: log in again
          if (status === 401 && route.auth !== 'public') token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
          if (route.url === '/auth/logout' && status < 400) token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
        }
      }
      // one line per route and problem, the first input that showed it
      const seen = new Set<string>();
      const report = findings.filter((f) => {
        const key = `${f.route} ${f.problem.slice(0, 80)}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      console.log(`fuzz (${TEST_DB}): ${routes.length} routes, ${requests} requests, ${findings.length} findings\n${report.map((f) => `${f.route}\n  ${f.request}\n  -> ${f.problem}`).join('\n')}`);
      expect(requests).toBeGreaterThan(routes.length * 5 - 1);
      expect(report).toEqual([]);
    },
    BUDGET_MS + 120_000,
  );
});

function diffCounts(before: string, after: string): string {
  const b = new Map(before.split(' ').map((p) => p.split('=') as [string, string]));
  return after
    .split(' ')
    .map((p) => p.split('=') as [string, string])
    .filter(([k, v]) => b.get(k) !== v)
    .map(([k, v]) => `${k} ${b.get(k)}->${v}`)
    .join(', ');
}
