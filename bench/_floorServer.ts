/**
 * The floor of bench/http-floor.ts: a bare Fastify server doing the same work as the product on three routes and
 * nothing else. Same driver and connection settings (openDatabase), the same token check (signature, revocation,
 * token version, enabled, permission code; the user loaded once with the product's own query and kept in memory),
 * the same SQL statements as the product's list endpoints, rows mapped by hand and answered with JSON.stringify.
 * No plugins, no schemas, no hooks. Started as a child process by http-floor.ts (env DB_URL, DATA_DIR, PORT).
 * Not a benchmark itself (files starting with `_` are skipped by run.ts).
 */
import Fastify, { type FastifyRequest } from 'fastify';
import { openDatabase } from '../apps/server/src/core/db.ts';
import { loadOrCreateKeys } from '../apps/server/src/core/auth/keys.ts';
import { verifyToken } from '../apps/server/src/core/auth/tokens.ts';
import { loadCurrentUser } from '../apps/server/src/core/auth/currentUser.ts';

type Row = Record<string, unknown>;
type User = NonNullable<Awaited<ReturnType<typeof loadCurrentUser>>>;

const database = await openDatabase(process.env.DB_URL!);
const db = database.db;
const keys = loadOrCreateKeys(process.env.DATA_DIR!);
const users = new Map<number, User>();
const revoked = new Set<string>();

class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

async function authenticate(req: FastifyRequest, permission?: string): Promise<User> {
  const header = req.headers.authorization;
  const claims = header?.startsWith('Bearer ') ? verifyToken(keys.tokenSecret, header.slice(7)) : null;
  if (!claims || revoked.has(claims.jti)) throw new HttpError(401, 'unauthorized');
  let user = users.get(claims.uid);
  if (!user) {
    const loaded = await loadCurrentUser(db, claims.uid);
    if (!loaded) throw new HttpError(401, 'unauthorized');
    users.set(claims.uid, (user = loaded));
  }
  if (user.tokenVersion !== claims.tv || !user.enabled) throw new HttpError(401, 'unauthorized');
  if (permission && !user.permissions.includes('ADMIN') && !user.permissions.includes(permission)) throw new HttpError(403, 'forbidden');
  return user;
}

/** Page and count, the way the product avoids statements whose answer is known (a short first page is all). */
async function page(base: any, orderColumn: string, pageNo: number, size: number): Promise<{ rows: Row[]; total: number }> {
  const count = async () => Number(((await base.select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n: number }).n);
  const rowsQuery = () => base.selectAll().orderBy(orderColumn, 'desc').limit(size).offset(pageNo * size).execute() as Promise<Row[]>;
  if (pageNo === 0) {
    const rows = await rowsQuery();
    return { rows, total: rows.length < size ? rows.length : await count() };
  }
  const total = await count();
  return { rows: pageNo * size < total ? await rowsQuery() : [], total };
}

const int = (v: unknown, dflt: number) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : dflt);

const app = Fastify({ logger: false });
app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
  reply.code(err.statusCode ?? 500).send({ message: err.message });
});

app.get('/auth/info', async (req) => {
  const u = await authenticate(req);
  return {
    id: u.id,
    username: u.username,
    cname: u.cname,
    email: u.email,
    phone: u.phone,
    avatar: u.avatar,
    dept: u.deptName,
    deptId: u.deptId,
    job: u.jobName,
    jobId: u.jobId,
    enabled: u.enabled,
    mustChangePassword: u.mustChangePassword,
    createTime: u.createTime,
    roles: u.permissions.length ? u.permissions : ['ROLE_DEFAULT'],
    roleNames: u.roles.map((r) => r.name),
    level: Number.isFinite(u.level) ? u.level : null,
  };
});

app.get('/api/users', async (req) => {
  await authenticate(req, 'USER_ALL');
  const q = req.query as Record<string, string>;
  const { rows, total } = await page(db.selectFrom('sys_user'), 'sys_user.id', int(q.page, 0), int(q.size, 10));
  const content = rows.map((r) => ({
    id: r.id,
    username: r.username,
    cname: r.cname,
    phone: r.phone,
    email: r.email,
    enabled: !!r.enabled,
    deptId: r.dept_id,
    jobId: r.job_id,
    avatar: r.avatar,
    lastPasswordResetTime: r.last_password_reset_time,
    mustChangePassword: !!r.must_change_password,
    createTime: r.create_time,
    updateTime: r.update_time,
  })) as Row[];
  if (content.length) {
    const ids = content.map((r) => r.id as number);
    const deptIds = [...new Set(content.map((r) => r.deptId).filter((v) => v !== null) as number[])];
    const jobIds = [...new Set(content.map((r) => r.jobId).filter((v) => v !== null) as number[])];
    const [depts, jobs, roles] = await Promise.all([
      deptIds.length ? db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', deptIds).execute() : [],
      jobIds.length ? db.selectFrom('sys_job').select(['id', 'name']).where('id', 'in', jobIds).execute() : [],
      db
        .selectFrom('sys_users_roles as l')
        .innerJoin('sys_role as t', 't.id', 'l.role_id')
        .select(['l.user_id as __owner', 't.id as id', 't.name as name', 't.level as level'])
        .where('l.user_id', 'in', ids)
        .orderBy('t.level', 'asc')
        .orderBy('t.id', 'asc')
        .execute(),
    ]);
    const dept = new Map(depts.map((d) => [d.id, { id: d.id, name: d.name }]));
    const job = new Map(jobs.map((j) => [j.id, { id: j.id, name: j.name }]));
    const byUser = new Map<unknown, Row[]>();
    for (const { __owner, ...role } of roles) {
      const list = byUser.get(__owner) ?? [];
      list.push(role);
      byUser.set(__owner, list);
    }
    for (const r of content) {
      r.dept = dept.get(r.deptId as number) ?? null;
      r.job = job.get(r.jobId as number) ?? null;
      r.roles = byUser.get(r.id) ?? [];
    }
  }
  return { content, totalElements: total };
});

/** Staff columns go out camelCased (the product maps them by its definition; the names are the same). */
const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const staffNames = new Map<string, string>();
app.get('/api/accountsStaff', async (req) => {
  await authenticate(req, 'ACCOUNTSSTAFF_SELECT');
  const q = req.query as Record<string, string>;
  let base = db.selectFrom('accounts_staff');
  if (q.companyId) base = base.where('accounts_staff.company_id', '=', Number(q.companyId));
  const { rows, total } = await page(base, 'accounts_staff.id', int(q.page, 0), int(q.size, 10));
  const content = rows.map((r) => {
    const out: Row = {};
    for (const column in r) {
      let name = staffNames.get(column);
      if (!name) staffNames.set(column, (name = camel(column)));
      out[name] = r[column];
    }
    return out;
  });
  return { content, totalElements: total };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// a clean exit on the bench's SIGTERM, so that a --cpu-prof profile (BENCH_PROFILE_FLOOR) gets written
process.once('SIGTERM', () => process.exit(0));
