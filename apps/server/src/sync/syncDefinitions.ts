import type { Db, DialectName } from '../core/db.ts';
import { insertReturningId, nowIso } from '../core/db.ts';
import type { ShippedDefinitions, ShippedMenu } from './definitions.ts';

/** What one sync inserted (for the start-up log and tests). */
export interface SyncReport {
  menus: string[];
  permissions: string[];
  dictionaries: string[];
  dictEntries: number;
}

type Row = Record<string, unknown>;

/** The menus the last release before the sync seeded (seed/menus.ts at commit 2161de3), by sync key. */
const PRE_SYNC_MENU_KEYS: ReadonlySet<string> = new Set([
  ...['accounts', 'accounts/company', 'accounts/staff', 'accounts/contract', 'accounts/contractWarn', 'accounts/staffExtra'],
  ...['salary', 'salary/accountsSalary', 'salary/salaryReport', 'acPayslip'],
  ...['records', 'records/accEntry', 'records/accDepart', 'records/accIntern', 'records/accJob', 'records/accTrain', 'records/accSocial', 'records/accGjj', 'records/accSalary'],
  ...['system', 'system/user', 'system/role', 'system/permission', 'system/menu', 'system/dept', 'system/job', 'system/dict'],
  ...['monitor', 'monitor/logs', 'monitor/errorLog'],
]);
interface State {
  rowId: number;
  shipped: Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/** The columns of `values` whose row value is still the one shipped before and whose shipped value changed. */
function followShipped(row: Row, before: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (!same(before[k], v) && same(row[k], before[k])) out[k] = v;
  return out;
}

/**
 * Write what the code ships (menus, permission codes, dictionaries) into a database, on every start:
 * - a missing item is inserted, and its shipped values remembered in `sys_sync_state`;
 * - an existing one takes a new shipped value only where the row still holds the value shipped before, so
 *   operator edits (renamed menu, re-ordered sort, hidden menu, edited alias or remark) survive;
 * - a menu or dictionary an operator deleted stays deleted (its state remains); built-in permission codes,
 *   which routes check by name and the API refuses to delete, are put back;
 * - rows of a database seeded before the state table existed are adopted (matched by component, path, name
 *   or code) with their current values taken as the operator's; a menu that release seeded but the database
 *   lacks counts as deleted by an operator (a missing dictionary entry is added: a missing option is worse);
 * - dictionary entry values are never changed (rates are confirmed by the operator), only missing entries added.
 * Idempotent; callers run it under the start-up lock. Returns what it inserted.
 */
export async function syncDefinitions(db: Db, dialect: DialectName, shipped: ShippedDefinitions): Promise<SyncReport> {
  const report: SyncReport = { menus: [], permissions: [], dictionaries: [], dictEntries: 0 };
  const run = async (trx: Db) => {
    const states = new Map<string, State>();
    for (const r of await trx.selectFrom('sys_sync_state').select(['kind', 'sync_key', 'row_id', 'shipped']).execute()) {
      states.set(`${r.kind}\u0000${r.sync_key}`, { rowId: Number(r.row_id), shipped: JSON.parse(String(r.shipped)) });
    }
    const stateOf = (kind: string, key: string) => states.get(`${kind}\u0000${key}`);
    const newStates: Row[] = [];
    const now = nowIso();
    const remember = async (kind: string, key: string, rowId: number, values: Record<string, unknown>, existing?: State) => {
      const json = JSON.stringify(values);
      if (!existing) newStates.push({ kind, sync_key: key, row_id: rowId, shipped: json, update_time: now });
      else if (JSON.stringify(existing.shipped) !== json || existing.rowId !== rowId)
        await trx.updateTable('sys_sync_state').set({ row_id: rowId, shipped: json, update_time: now }).where('kind', '=', kind).where('sync_key', '=', key).execute();
    };

    await syncMenus(trx, dialect, shipped.menus, stateOf, remember, report, now);
    await syncPermissions(trx, dialect, shipped, stateOf, remember, report, now);
    await syncDictionaries(trx, dialect, shipped, stateOf, remember, report, now);
    for (let i = 0; i < newStates.length; i += 200) await trx.insertInto('sys_sync_state').values(newStates.slice(i, i + 200)).execute();
  };
  await db.transaction().execute(run);
  return report;
}

type StateOf = (kind: string, key: string) => State | undefined;
type Remember = (kind: string, key: string, rowId: number, values: Record<string, unknown>, existing?: State) => Promise<void>;

function menuValues(m: ShippedMenu): Record<string, unknown> {
  return { name: m.name, path: m.path, icon: m.icon, component: m.component, hidden: m.hidden ? 1 : 0, sort: m.sort };
}

async function syncMenus(db: Db, dialect: DialectName, menus: ShippedMenu[], stateOf: StateOf, remember: Remember, report: SyncReport, now: string) {
  const rows = new Map<number, Row>();
  for (const r of await db.selectFrom('sys_menu').select(['id', 'pid', 'name', 'path', 'icon', 'component', 'hidden', 'sort']).execute()) rows.set(Number(r.id), r);
  const claimed = new Set<number>();
  for (const m of menus) {
    const st = stateOf('menu', m.key);
    if (st) claimed.add(st.rowId);
  }
  // A database seeded before the sync existed got that release's whole tree at its first start: one of those
  // menus missing there was deleted by an operator.
  const legacy = rows.size > 0 && claimed.size === 0;
  const idOfKey = new Map<string, number>();
  const inserted: number[] = [];
  for (const m of menus) {
    const pid = m.parentKey === undefined ? 0 : idOfKey.get(m.parentKey);
    if (pid === undefined) continue; // its directory was deleted by an operator
    const values = menuValues(m);
    const st = stateOf('menu', m.key);
    if (st) {
      const row = rows.get(st.rowId);
      if (!row) continue; // deleted by an operator: stays deleted
      const changes = followShipped(row, st.shipped, values);
      if (Object.keys(changes).length) await db.updateTable('sys_menu').set({ ...changes, update_time: now }).where('id', '=', st.rowId).execute();
      await remember('menu', m.key, st.rowId, values, st);
      idOfKey.set(m.key, st.rowId);
      continue;
    }
    const free = [...rows.values()].filter((r) => !claimed.has(Number(r.id)));
    const adopted =
      (m.component ? free.find((r) => r.component === m.component) : free.find((r) => Number(r.pid) === pid && r.path === m.path && !r.component)) ??
      free.find((r) => r.name === m.name);
    let id: number;
    if (adopted) id = Number(adopted.id);
    else if (legacy && PRE_SYNC_MENU_KEYS.has(m.key)) {
      await remember('menu', m.key, 0, values); // row 0: none, i.e. deleted
      continue;
    } else {
      // menu names are unique: when an operator already gave another menu this name, the new one says where it is
      const taken = [...rows.values()].some((r) => r.name === m.name);
      const row = { ...values, name: taken ? `${m.name}（${m.key}）`.slice(0, 100) : m.name };
      id = await insertReturningId(db, dialect, 'sys_menu', { ...row, iframe: 0, cache: 0, pid, create_time: now });
      rows.set(id, { id, pid, ...row });
      inserted.push(id);
      report.menus.push(m.key);
    }
    claimed.add(id);
    await remember('menu', m.key, id, values);
    idOfKey.set(m.key, id);
  }
  // A new screen is visible to the roles holding ADMIN (others get it when an administrator grants it).
  if (inserted.length) {
    const admins = await db
      .selectFrom('sys_roles_permissions as rp')
      .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
      .select('rp.role_id')
      .where('p.name', '=', 'ADMIN')
      .execute();
    const grants = admins.flatMap((a) => inserted.map((menu_id) => ({ role_id: Number(a.role_id), menu_id })));
    for (let i = 0; i < grants.length; i += 500) await db.insertInto('sys_roles_menus').values(grants.slice(i, i + 500)).execute();
  }
}

async function syncPermissions(db: Db, dialect: DialectName, shipped: ShippedDefinitions, stateOf: StateOf, remember: Remember, report: SyncReport, now: string) {
  const rows = new Map<string, Row>();
  for (const r of await db.selectFrom('sys_permission').select(['id', 'name', 'alias', 'pid']).execute()) rows.set(String(r.name), r);
  for (const p of shipped.permissions) {
    const values = { alias: p.alias };
    const st = stateOf('permission', p.code);
    const row = rows.get(p.code);
    if (row) {
      if (st) {
        const changes = followShipped(row, st.shipped, values);
        if (Object.keys(changes).length) await db.updateTable('sys_permission').set({ ...changes, update_time: now }).where('id', '=', row.id as number).execute();
      }
      await remember('permission', p.code, Number(row.id), values, st);
      continue;
    }
    const pid = p.parentCode ? Number(rows.get(p.parentCode)?.id ?? 0) : 0;
    const id = await insertReturningId(db, dialect, 'sys_permission', { name: p.code, alias: p.alias, pid, create_time: now });
    rows.set(p.code, { id, name: p.code, alias: p.alias, pid });
    report.permissions.push(p.code);
    await remember('permission', p.code, id, values, st);
  }
}

async function syncDictionaries(db: Db, dialect: DialectName, shipped: ShippedDefinitions, stateOf: StateOf, remember: Remember, report: SyncReport, now: string) {
  const dicts = new Map<string, Row>();
  for (const r of await db.selectFrom('sys_dict').select(['id', 'name', 'remark']).execute()) dicts.set(String(r.name), r);
  const byId = new Map([...dicts.values()].map((r) => [Number(r.id), r]));
  for (const d of shipped.dictionaries) {
    const values = { remark: d.remark };
    const st = stateOf('dict', d.name);
    let dictId: number;
    if (st) {
      const row = byId.get(st.rowId);
      if (!row) continue; // deleted by an operator
      const changes = followShipped(row, st.shipped, values);
      if (Object.keys(changes).length) await db.updateTable('sys_dict').set({ ...changes, update_time: now }).where('id', '=', st.rowId).execute();
      dictId = st.rowId;
    } else {
      const row = dicts.get(d.name);
      if (row) dictId = Number(row.id);
      else {
        dictId = await insertReturningId(db, dialect, 'sys_dict', { name: d.name, remark: d.remark, create_time: now });
        report.dictionaries.push(d.name);
      }
    }
    await remember('dict', d.name, dictId, values, st);
    if (d.entries.length) await syncDictEntries(db, d, dictId, stateOf, remember, report, now);
  }
}

async function syncDictEntries(db: Db, d: ShippedDefinitions['dictionaries'][number], dictId: number, stateOf: StateOf, remember: Remember, report: SyncReport, now: string) {
  const load = async () => (await db.selectFrom('sys_dict_detail').select(['id', 'label', 'value', 'sort']).where('dict_id', '=', dictId).execute()) as Row[];
  let rows = await load();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const claimed = new Set<number>();
  for (const [label] of d.entries) {
    const st = stateOf('dict_entry', `${d.name}/${label}`);
    if (st) claimed.add(st.rowId);
  }
  const valueCount = new Map<string, number>();
  for (const [, value] of d.entries) valueCount.set(value, (valueCount.get(value) ?? 0) + 1);
  const missing: { key: string; label: string; value: string; sort: number }[] = [];
  for (const [i, [label, value]] of d.entries.entries()) {
    const key = `${d.name}/${label}`;
    const values = { label, sort: i + 1 };
    const st = stateOf('dict_entry', key);
    if (st) {
      const row = byId.get(st.rowId);
      if (!row) continue; // deleted by an operator
      const changes = followShipped(row, st.shipped, values);
      if (Object.keys(changes).length) await db.updateTable('sys_dict_detail').set({ ...changes, update_time: now }).where('id', '=', st.rowId).execute();
      await remember('dict_entry', key, st.rowId, values, st);
      continue;
    }
    const free = rows.filter((r) => !claimed.has(Number(r.id)));
    // adopt by label, or by value where the value names one entry only (a renamed label)
    const adopted = free.find((r) => r.label === label) ?? (valueCount.get(value) === 1 ? free.find((r) => r.value === value) : undefined);
    if (adopted) {
      claimed.add(Number(adopted.id));
      await remember('dict_entry', key, Number(adopted.id), values);
    } else missing.push({ key, label, value, sort: i + 1 });
  }
  if (!missing.length) return;
  await db
    .insertInto('sys_dict_detail')
    .values(missing.map((m) => ({ dict_id: dictId, label: m.label, value: m.value, sort: m.sort, create_time: now })))
    .execute();
  report.dictEntries += missing.length;
  rows = await load();
  for (const m of missing) {
    const row = rows.find((r) => r.label === m.label && !claimed.has(Number(r.id)));
    if (!row) continue;
    claimed.add(Number(row.id));
    await remember('dict_entry', m.key, Number(row.id), { label: m.label, sort: m.sort });
  }
}
