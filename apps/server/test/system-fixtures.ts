import { dynamicDb } from '../src/core/db.ts';
import type { InjectOptions } from 'fastify';
import { hashPassword } from '../src/core/auth/password.ts';
import { signToken } from '../src/core/auth/tokens.ts';
import { insertReturningId, nowIso } from '../src/core/db.ts';
import { bearer, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';

/**
 * Shared set-up for the system-management tests: roles and users written straight into the database
 * (fast, no argon2 per user), tokens minted with the app's real secret, and a tiny request helper.
 */

export const FIXTURE_PASSWORD = 'Fixture#2024';
let fixtureHash: Promise<string> | undefined;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `call(method, url, payload?)` as a given token (or anonymously). */
export function caller(t: TestApp, token?: string) {
  return (method: Method, url: string, payload?: unknown, extra: Partial<InjectOptions> = {}) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as never }), ...extra });
}

export type Caller = ReturnType<typeof caller>;

export async function adminCaller(t: TestApp): Promise<Caller> {
  return caller(t, await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
}

export async function idOf(t: TestApp, table: string, name: string): Promise<number> {
  const row = await dynamicDb(t.app.ctx.db).selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface RoleSpec {
  name: string;
  level?: number;
  dataScope?: '全部' | '本级' | '自定义';
  codes?: string[];
  depts?: number[];
  menus?: number[];
}

/** A role with the given permission codes (and departments for 自定义). */
export async function createRole(t: TestApp, spec: RoleSpec): Promise<number> {
  const { db, dialect } = t.app.ctx;
  const id = await insertReturningId(db, dialect, 'sys_role', { name: spec.name, level: spec.level ?? 3, data_scope: spec.dataScope ?? '全部', create_time: nowIso() });
  if (spec.codes?.length) {
    const perms = await db.selectFrom('sys_permission').select(['id', 'name']).where('name', 'in', spec.codes).execute();
    if (perms.length !== spec.codes.length) throw new Error(`unknown permission code among ${spec.codes.join(',')}`);
    await db
      .insertInto('sys_roles_permissions')
      .values(perms.map((p) => ({ role_id: id, permission_id: p.id })))
      .execute();
  }
  if (spec.depts?.length)
    await db
      .insertInto('sys_roles_depts')
      .values(spec.depts.map((d) => ({ role_id: id, dept_id: d })))
      .execute();
  if (spec.menus?.length)
    await db
      .insertInto('sys_roles_menus')
      .values(spec.menus.map((m) => ({ role_id: id, menu_id: m })))
      .execute();
  return id;
}

export interface UserSpec {
  username: string;
  roleIds: number[];
  deptId?: number;
  jobId?: number;
  enabled?: boolean;
  email?: string;
}

/** A user (password FIXTURE_PASSWORD) with the given roles. */
export async function createUser(t: TestApp, spec: UserSpec): Promise<number> {
  const { db, dialect } = t.app.ctx;
  fixtureHash ??= hashPassword(FIXTURE_PASSWORD);
  const jobId = spec.jobId ?? (await db.selectFrom('sys_job').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const id = await insertReturningId(db, dialect, 'sys_user', {
    username: spec.username,
    cname: spec.username.slice(0, 20),
    email: spec.email ?? `${spec.username.toLowerCase()}@fixture.test`,
    phone: '13900000000',
    password_hash: await fixtureHash,
    enabled: spec.enabled === false ? 0 : 1,
    dept_id: spec.deptId ?? 1,
    job_id: jobId,
    token_version: 0,
    last_password_reset_time: nowIso(),
    create_time: nowIso(),
    update_time: nowIso(),
  });
  if (spec.roleIds.length)
    await db
      .insertInto('sys_users_roles')
      .values(spec.roleIds.map((r) => ({ user_id: id, role_id: r })))
      .execute();
  return id;
}

/** A valid token for a user, signed with the app's secret (no login round trip). */
export async function tokenFor(t: TestApp, userId: number): Promise<string> {
  const row = await t.app.ctx.db.selectFrom('sys_user').select('token_version').where('id', '=', userId).executeTakeFirstOrThrow();
  return signToken(t.app.ctx.keys.tokenSecret, userId, Number(row.token_version), 3600).token;
}

let seq = 0;
/** A fresh user holding exactly these codes through one role; returns its id, role and a caller. */
export async function userWithCodes(t: TestApp, codes: string[], opts: Partial<RoleSpec> & { deptId?: number } = {}) {
  seq += 1;
  const tag = `${Date.now().toString(36)}${seq}`;
  const roleId = await createRole(t, { name: `r_${tag}`, level: opts.level ?? 2, dataScope: opts.dataScope ?? '全部', codes, depts: opts.depts, menus: opts.menus });
  const id = await createUser(t, { username: `u_${tag}`, roleIds: [roleId], deptId: opts.deptId });
  const token = await tokenFor(t, id);
  return { id, roleId, token, call: caller(t, token) };
}

/** A body for POST /api/users that passes validation. */
export function newUserBody(username: string, roleIds: number[], deptId = 1, jobId = 1) {
  return {
    username,
    cname: `用户${username}`.slice(0, 20),
    email: `${username.toLowerCase()}@example.com`,
    phone: '13812345678',
    enabled: true,
    dept: { id: deptId },
    job: { id: jobId },
    roles: roleIds.map((id) => ({ id })),
  };
}
