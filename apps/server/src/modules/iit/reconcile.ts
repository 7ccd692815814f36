import type { IitDiff, IitReconcile } from '@app/shared/contracts/iit';
import { fenToYuan } from '@app/shared/payroll';
import { type Db, insertReturningId, nowIso } from '../../core/db.ts';
import type { DialectName } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { cellText } from '../../core/excel/cells.ts';
import { type AgentScope, confirmedWageRows } from './agent.ts';
import { wagesByPerson } from './declaration.ts';
import { amountCell, idCell, readItsFile } from './itsFile.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/**
 * ITS's calculated 正常工资薪金 result against ours (issue 23 item 5): per person, ITS's 累计应补(退)税额 is the tax
 * it withholds this month; ours is the 个人所得税 of the person's confirmed wage rows at the agent (several client
 * companies added up). Any difference of a fen or more is listed, and so is a person on one side only. A new
 * import of the same agent and month replaces the result; an acknowledgement carries over to a difference that is
 * still the same (same person, kind and both figures), so importing the same file again loses no work.
 */
const TAX_FIELD = 'due';
const FIELDS = [
  { name: 'name', label: '姓名', headers: ['姓名'] },
  { name: 'idCard', label: '证件号码', headers: ['证件号码', '证照号码', '身份证件号码'], required: true },
  { name: TAX_FIELD, label: '累计应补(退)税额', headers: ['累计应补(退)税额', '应补(退)税额', '累计应补退税额'], required: true },
];

type DiffRow = { kind: 'differs' | 'ours' | 'its'; id_card: string; staff_name: string | null; ours: number | null; its: number | null };

export async function importResult(db: Db, dialect: DialectName, scope: AgentScope, month: string, file: { data: Buffer; fileName: string }, username: string | null): Promise<IitReconcile> {
  const lines = await readItsFile(file.data, FIELDS);
  const its = new Map<string, { name: string; due: number; line: number }>();
  for (const l of lines) {
    const idCard = idCell(l, 'idCard');
    if (!idCard) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_ID_EMPTY' } });
    const before = its.get(idCard);
    if (before) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_ID_DUPLICATE', params: { row: before.line } } });
    its.set(idCard, { name: cellText(l.cell('name')), due: amountCell(l, TAX_FIELD, '累计应补(退)税额'), line: l.line });
  }
  if (!its.size) throw new AppError('IIT_FILE_EMPTY');
  const ours = wagesByPerson(await confirmedWageRows(db, scope, [month], true));
  const diffs: DiffRow[] = [];
  for (const [idCard, p] of ours) {
    const t = its.get(idCard);
    if (!t) diffs.push({ kind: 'ours', id_card: idCard, staff_name: p.name, ours: p.tax, its: null });
    else if (t.due !== p.tax) diffs.push({ kind: 'differs', id_card: idCard, staff_name: p.name, ours: p.tax, its: t.due });
  }
  for (const [idCard, t] of its) if (!ours.has(idCard)) diffs.push({ kind: 'its', id_card: idCard, staff_name: t.name || null, ours: null, its: t.due });

  const previous = await latestReconcile(db, scope.agent, month);
  const carried = new Map<string, { ack_reason: string | null; ack_by: string | null; ack_time: string | null }>();
  if (previous) {
    const acked = await db.selectFrom('accounts_iit_diff').select(['kind', 'id_card', 'ours', 'its', 'ack_reason', 'ack_by', 'ack_time']).where('reconcile_id', '=', previous.id).where('ack_time', 'is not', null).execute();
    for (const a of acked) carried.set(diffKey({ kind: a.kind as DiffRow['kind'], id_card: a.id_card, ours: nullableFen(a.ours), its: nullableFen(a.its) }), { ack_reason: a.ack_reason, ack_by: a.ack_by, ack_time: a.ack_time });
  }
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const rid = await insertReturningId(trx, dialect, 'accounts_iit_reconcile', {
      dispatch_company: scope.agent,
      month,
      file_name: file.fileName.slice(0, 200),
      ours_count: ours.size,
      its_count: its.size,
      diff_count: diffs.length,
      create_by: username,
      create_time: now,
      update_time: now,
    });
    const values = diffs.map((d) => ({ ...d, ...(carried.get(diffKey(d)) ?? {}), reconcile_id: rid, create_time: now, update_time: now }));
    for (let i = 0; i < values.length; i += 500) await trx.insertInto('accounts_iit_diff').values(values.slice(i, i + 500)).execute();
    return rid;
  });
  return reconcileOut(db, id);
}

const diffKey = (d: Pick<DiffRow, 'kind' | 'id_card' | 'ours' | 'its'>) => `${d.kind}|${d.id_card}|${d.ours ?? ''}|${d.its ?? ''}`;
const nullableFen = (v: number | string | null) => (v === null ? null : Number(v));

/** The reconciliation that counts for an agent and month: the latest import. */
export async function latestReconcile(db: Db, agent: string, month: string): Promise<{ id: number } | null> {
  const r = await db.selectFrom('accounts_iit_reconcile').select('id').where('dispatch_company', '=', agent).where('month', '=', month).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return r ? { id: Number(r.id) } : null;
}

export async function openCount(db: Db, reconcileId: number): Promise<number> {
  return countOf(db.selectFrom('accounts_iit_diff').where('reconcile_id', '=', reconcileId).where('ack_time', 'is', null));
}

export async function reconcileOut(db: Db, id: number): Promise<IitReconcile> {
  const r = await db.selectFrom('accounts_iit_reconcile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return {
    id: Number(r.id),
    dispatchCompany: r.dispatch_company,
    month: r.month,
    fileName: r.file_name,
    oursCount: Number(r.ours_count),
    itsCount: Number(r.its_count),
    diffCount: Number(r.diff_count),
    openCount: await openCount(db, Number(r.id)),
    createBy: r.create_by,
    createTime: r.create_time,
  };
}

type StoredDiff = { id: number; kind: string; id_card: string; staff_name: string | null; ours: number | string | null; its: number | string | null; ack_reason: string | null; ack_by: string | null; ack_time: string | null };

export function diffOut(d: StoredDiff): IitDiff {
  const ours = nullableFen(d.ours);
  const its = nullableFen(d.its);
  return {
    id: Number(d.id),
    kind: d.kind as IitDiff['kind'],
    idCard: d.id_card,
    staffName: d.staff_name,
    ours: ours === null ? null : fenToYuan(ours),
    its: its === null ? null : fenToYuan(its),
    difference: ours === null || its === null ? null : fenToYuan(its - ours),
    ackReason: d.ack_reason,
    ackBy: d.ack_by,
    ackTime: d.ack_time,
  };
}

/**
 * The payout gate: the unacknowledged differences of the agent's latest reconciliation for the month (0 when the
 * month was never reconciled: the reconciliation is a check the office runs, not a step every month must pass).
 */
export async function openDifferences(db: Db, agent: string | null, month: string): Promise<{ reconcileId: number; open: number } | null> {
  if (!agent) return null;
  const latest = await latestReconcile(db, agent, month);
  if (!latest) return null;
  const open = await openCount(db, latest.id);
  return open ? { reconcileId: latest.id, open } : null;
}
