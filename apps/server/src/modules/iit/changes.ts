import { ITS_CHANGE_AUDIT_COLUMNS, ITS_PERSON_COLUMNS } from '@app/shared/iit/itsLayouts';
import { type Db, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { cellText } from '../../core/excel/cells.ts';
import { type AgentScope, normId } from './agent.ts';
import { type Cells, hasLeft, personRow, type StaffFacts, staffOfAgent } from './declaration.ts';
import { dateCell, idCell, readItsFile } from './itsFile.ts';

/**
 * 增减员 against ITS (issue 23 item 6; month-close.md §B2): the person list exported from ITS is stored per agent and
 * month (the next import replaces it). 增员 = whoever we pay this month (any salary row of the agent's companies,
 * confirmed or not) or employ (a staff record not left, joined by the month's end) that ITS does not know.
 * 离职待报 = ITS persons without 离职日期 (and not already 非正常) whom we do not pay this month and whose staff
 * record says they left: reported with the 离职日期 we hold, in the 人员信息采集 layout plus two audit columns.
 */
const FIELDS = [
  { name: 'name', label: '姓名', headers: ['姓名'], required: true },
  { name: 'idCard', label: '证件号码', headers: ['证件号码', '证照号码', '身份证件号码'], required: true },
  { name: 'leave', label: '离职日期', headers: ['离职日期'] },
  { name: 'status', label: '人员状态', headers: ['人员状态', '状态'] },
];

export async function importPersonList(db: Db, scope: AgentScope, month: string, data: Buffer): Promise<void> {
  const lines = await readItsFile(data, FIELDS);
  const seen = new Map<string, number>();
  const now = nowIso();
  const values = lines.map((l) => {
    const idCard = idCell(l, 'idCard');
    if (!idCard) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_ID_EMPTY' } });
    const before = seen.get(idCard);
    if (before) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_ID_DUPLICATE', params: { row: before } } });
    seen.set(idCard, l.line);
    const leave = dateCell(l, 'leave', '离职日期');
    return { dispatch_company: scope.agent, month, id_card: idCard, staff_name: cellText(l.cell('name')).slice(0, 50) || null, leave_date: leave || null, status: cellText(l.cell('status')).slice(0, 20) || null, create_time: now, update_time: now };
  });
  if (!values.length) throw new AppError('IIT_FILE_EMPTY');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('accounts_iit_person').where('dispatch_company', '=', scope.agent).where('month', '=', month).execute();
    for (let i = 0; i < values.length; i += 500) await trx.insertInto('accounts_iit_person').values(values.slice(i, i + 500)).execute();
  });
}

export interface Changes {
  imported: { count: number; time: string | null } | null;
  add: Cells[];
  leave: Cells[];
}

const monthEnd = (m: string) => `${m}-31`;

export async function computeChanges(db: Db, scope: AgentScope, month: string): Promise<Changes> {
  const list = await db.selectFrom('accounts_iit_person').select(['id_card', 'staff_name', 'leave_date', 'status', 'create_time']).where('dispatch_company', '=', scope.agent).where('month', '=', month).execute();
  if (!list.length) return { imported: null, add: [], leave: [] };
  const its = new Map(list.map((p) => [p.id_card, p]));
  const ids = scope.companies.map((c) => c.id);
  const salary = ids.length ? await db.selectFrom('accounts_salary').select(['staff_name', 'id_card']).where('company_id', 'in', ids).where('month', '=', month).orderBy('id').execute() : [];
  const paid = new Map<string, string>();
  for (const s of salary) if (normId(s.id_card)) paid.set(normId(s.id_card), String(s.staff_name ?? ''));
  const staff = await staffOfAgent(db, scope);
  const blank = (idCard: string, name: string): StaffFacts => ({ idCard, name, sex: null, phone: null, induction: null, leave: null, jobState: null, education: null, bank: null, card: null, job: null });

  const add: Cells[] = [];
  for (const [idCard, name] of paid) if (!its.has(idCard)) add.push(audit(personRow(staff.get(idCard) ?? blank(idCard, name)), '增员', '本月有工资，税局人员名单中没有'));
  for (const f of staff.values()) {
    if (its.has(f.idCard) || paid.has(f.idCard) || hasLeft(f) || !f.induction || f.induction > monthEnd(month)) continue;
    add.push(audit(personRow(f), '增员', '在职员工，税局人员名单中没有'));
  }
  const leave: Cells[] = [];
  for (const p of list) {
    if (p.leave_date || (p.status ?? '').includes('非正常') || paid.has(p.id_card)) continue;
    const f = staff.get(p.id_card);
    if (!f || !hasLeft(f)) continue;
    leave.push(audit(personRow(f, { leaver: true }), '离职待报', f.leave ? `本系统离职日期${f.leave}，本月无工资` : '本系统标记离职但无离职日期，请补填离职日期'));
  }
  const time = list.reduce<string | null>((t, p) => (p.create_time && (!t || p.create_time > t) ? p.create_time : t), null);
  return { imported: { count: list.length, time }, add, leave };
}

function audit(row: Cells, kind: string, note: string): Cells {
  const [k, n] = ITS_CHANGE_AUDIT_COLUMNS;
  return { ...row, [k]: kind, [n]: note };
}

export const CHANGE_COLUMNS = [...ITS_PERSON_COLUMNS, ...ITS_CHANGE_AUDIT_COLUMNS];
