import { dynamicDb } from '../../core/db.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  exportAllPayslips,
  exportOnePayslip,
  exportPayslips as exportPayslipsContract,
  generatePayslips as generatePayslipsContract,
  importPayslips,
  payslipTemplate,
} from '@app/shared/contracts/payslips';
import { routeContract } from '../../crud/registerContract.ts';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import { kindOf } from '@app/shared/resource';
import { PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { renderFor, requestLanguage, translateLabel } from '../../core/errorLanguage.ts';
import { exportColumn, exportFields, importFields } from '../../core/excel/columns.ts';
import { sendXlsx } from '../../core/excel/writeXlsx.ts';
import { parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { type AnySelect, type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { readUpload } from '../../crud/excel.ts';
import { loadVisibleCompany } from './companies.ts';
import { importPayslipFile } from './payslipImport.ts';
import { loadSalaryLineSources, registerPayslipLines, salaryPayslipLines } from './payslipLines.ts';
import { fieldColumn, isConfirmed, SALARY_TABLE, salaryColumn } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * Payslips: generic CRUD with the ordinary-employee rule, import, the two exports and generation from a
 * confirmed salary month. An ordinary employee (job 普通员工) sees, on every endpoint and whatever the query,
 * only payslips whose ID card equals their username, and can change nothing.
 */

const TABLE = payslipResource.table;
const EXPORT_CHUNK = 1000;

/** Is the caller an ordinary employee (restricted to their own payslips)? */
export function isOrdinaryEmployee(req: FastifyRequest): boolean {
  return req.user?.jobName === ORDINARY_EMPLOYEE_JOB;
}

/** The ID card values an ordinary employee's username stands for (the check character may be typed lower case). */
function ownIdCards(req: FastifyRequest): string[] {
  const u = (req.user?.username ?? '').trim();
  return [...new Set([u, u.toUpperCase()])].filter(Boolean);
}

function restrictToOwn(req: FastifyRequest, qb: AnySelect): AnySelect {
  if (!isOrdinaryEmployee(req)) return qb;
  const ids = ownIdCards(req);
  return ids.length ? qb.where(`${TABLE}.id_card`, 'in', ids) : qb.where(`${TABLE}.id`, '<', 0);
}

function refuseEmployee(req: FastifyRequest): void {
  if (isOrdinaryEmployee(req)) throw new AppError('PAYSLIP_DELIVERY_EMPLOYEE');
}

export function registerPayslipRoutes(app: FastifyInstance): void {
  const resource = registerResource(app, payslipResource, {
    scope: (req, qb) => restrictToOwn(req, qb),
    beforeWrite: (values, { req, mode }) => {
      refuseEmployee(req);
      if (mode === 'create') values.source = '录入';
    },
    beforeDelete: (_ids, { req }) => refuseEmployee(req),
  });

  routeContract(app, exportAllPayslips, (req, reply) => exportPayslips(resource, req, reply, req.query));
  // The generic resource screen exports through /api/export/<name>: the same rows.
  routeContract(app, exportPayslipsContract, (req, reply) => exportPayslips(resource, req, reply, req.query));

  routeContract(app, exportOnePayslip, async (req, reply) => {
    const query: Record<string, unknown> = { ...req.query };
    const idCard = typeof query.idCard === 'string' ? query.idCard.trim().toUpperCase() : '';
    delete query.idCard;
    delete query.name;
    if (!isOrdinaryEmployee(req) && !idCard) throw new AppError('PAYSLIP_ID_CARD_REQUIRED', {}, { idCard: { code: 'PAYSLIP_ID_CARD_REQUIRED' } });
    return exportPayslips(resource, req, reply, query, { exactIdCard: isOrdinaryEmployee(req) ? undefined : idCard, onlyFilled: true });
  });

  routeContract(app, payslipTemplate, async (req, reply) => {
    refuseEmployee(req);
    const columns = importFields(payslipResource).map((f) => ({ header: f.label, kind: kindOf(f).excel.cell }));
    return sendXlsx(reply, { fileName: `${payslipResource.excel.templateName}`, columns, rows: [] });
  });

  routeContract(app, importPayslips, async (req) => {
    refuseEmployee(req);
    const file = (await readUpload(req)).data;
    const audit = { username: req.user?.username ?? null, ip: req.ip, browser: String(req.headers['user-agent'] ?? '') };
    const { total, inserted, updated, unchanged, replaced, warnings } = await importPayslipFile(app.ctx.db, app.ctx.dialect, file, audit);
    const language = requestLanguage(req.headers['accept-language']);
    const shown = warnings.map((w) => ({ row: w.row, column: translateLabel(w.column, language) ?? w.column, message: renderFor(w.message.code, language, w.message.params) }));
    return { total, inserted, updated, unchanged, replaced: replaced.length, failed: 0, errors: [], warnings: shown };
  });

  registerPayslipLines(app, isOrdinaryEmployee, ownIdCards);

  routeContract(app, generatePayslipsContract, async (req) => {
    refuseEmployee(req);
    const { companyId, month } = req.body;
    const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
    const n = await generatePayslips(app, company.id, month);
    return { message: renderFor('PAYSLIP_GENERATE_DONE', requestLanguage(req.headers['accept-language']), { count: n }) };
  });
}

/** Columns of a one-person export that are kept even when empty: they say whose payslip it is. */
const ONE_PERSON_LEAD = new Set(['month', 'name', 'idCard']);
/** A person's payslips over the years: small enough to read whole before choosing the columns. */
const ONE_PERSON_MAX_ROWS = 5000;
const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '';

async function exportPayslips(
  resource: RegisteredResource,
  req: FastifyRequest,
  reply: FastifyReply,
  query: Record<string, unknown>,
  options: { exactIdCard?: string; onlyFilled?: boolean } = {},
): Promise<FastifyReply> {
  const { sort } = parsePaging(query, sortableColumns(payslipResource), payslipResource.defaultSort);
  let filtered = await resource.listQuery(req, query);
  if (options.exactIdCard) filtered = filtered.where(`${TABLE}.id_card`, '=', options.exactIdCard);
  const fields = exportFields(payslipResource);
  const toColumns = (fs: typeof fields) => fs.map((f) => exportColumn(f, { dictLabelOf: new Map(), refLabelOf: new Map() }));
  if (options.onlyFilled) {
    // U14: a person's workbook holds only the items their payslips carry (not ~50 empty university items)
    let qb = filtered.selectAll(TABLE);
    for (const [c, d] of sort) qb = qb.orderBy(`${TABLE}.${c}`, d);
    const own = ((await qb.limit(ONE_PERSON_MAX_ROWS).execute()) as Record<string, unknown>[]).map((r) => rowToApi(payslipResource, r));
    const filled = fields.filter((f) => ONE_PERSON_LEAD.has(f.name) || own.some((r) => !isEmptyValue(r[f.name])));
    return sendXlsx(reply, { fileName: payslipResource.excel.fileName, columns: toColumns(filled), rows: own });
  }
  const columns = toColumns(fields);
  async function* rows() {
    for (let offset = 0; ; offset += EXPORT_CHUNK) {
      let qb = filtered.selectAll(TABLE);
      for (const [c, d] of sort) qb = qb.orderBy(`${TABLE}.${c}`, d);
      const page = (await qb.limit(EXPORT_CHUNK).offset(offset).execute()) as Record<string, unknown>[];
      yield* page.map((r) => rowToApi(payslipResource, r));
      if (page.length < EXPORT_CHUNK) return;
    }
  }
  return sendXlsx(reply, { fileName: payslipResource.excel.fileName, columns, rows: rows() });
}

const S = salaryColumn;
const ST = (name: string) => fieldColumn(staffResource, name);

/**
 * Payslips of a confirmed month from its salary rows (payroll-rules.md §5.3): jichu = 基本工资, jiaban = 加班费,
 * koukuan = 扣款（税前）, benqi = 本期应发, the sum of the slip's income lines (payslipLines.ts: 基本工资 + 加班费 − 扣款 + the
 * annual bonus, also when taxed separately, PB5), yanglao/yiliao/shiye/gongjijin = the personal items,
 * shebaogeren = social insurance, shebaogongjijin = 五险一金, yingshui = this month's taxable income (may be
 * negative; for a person paid by two client companies it is the person's figure), yingna = tax,
 * shuihou = 应发 − 五险一金 − 个税, nianzhong1 = the annual bonus, nianzhong3 = its separate tax, shangyueweikou =
 * 上月应扣未扣, yingkouweikou = 应扣未扣, danweidianfu = 单位垫付, shifa = 实发.
 * Earlier generated payslips of the company's month are replaced.
 */
export async function generatePayslips(app: FastifyInstance, companyId: number, month: string): Promise<number> {
  return app.ctx.db.transaction().execute(async (trx) => {
    if (!(await isConfirmed(trx, companyId, month))) throw new AppError('PAYSLIP_MONTH_NOT_CONFIRMED');
    const fields: SalaryFieldName[] = ['companyName', 'staffName', 'idCard', 'taxesType', 'salary', 'jiaban', 'koukuan', 'bonus', 'bonusMerged', 'bonusTax', 'gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'tax', 'realSalary', 'carriedIn', 'unpaid', 'advanced', 'backPay', 'backDeduct', 'severance', 'severanceTax', 'taxableThisMonth'];
    const rows = (await trx
      .selectFrom(SALARY_TABLE)
      .select(fields.map((f) => refAs(S(f), f)))
      .where(S('companyId'), '=', companyId)
      .where(S('month'), '=', month)
      .orderBy(S('id'))
      .execute()) as Record<string, unknown>[];
    const staff = (await trx
      .selectFrom(staffResource.table)
      .select([refAs(ST('id'), 'staffId'), refAs(ST('idCard'), 'idCard'), refAs(ST('salaryBank'), 'bank'), refAs(ST('bankcardNumber'), 'bankNumber')])
      .where(ST('companyId'), '=', companyId)
      .execute()) as { staffId: number; idCard: string; bank: string | null; bankNumber: string | null }[];
    const staffOf = new Map(staff.map((s) => [String(s.idCard).toUpperCase(), s]));
    await trx.deleteFrom(TABLE).where('company_id', '=', companyId).where('month', '=', month).where('source', '=', PAYSLIP_SOURCE.generated).execute();
    // A person whose payslip of the month was imported (for this company or none) keeps it: never two payslips.
    const imported = await trx
      .selectFrom(TABLE)
      .select('id_card')
      .where('month', '=', month)
      .where('source', '=', PAYSLIP_SOURCE.imported)
      .where((eb) => eb.or([eb('company_id', '=', companyId), eb('company_id', 'is', null)]))
      .execute();
    const keep = new Set(imported.map((r) => String(r.id_card).toUpperCase()));
    // PB5: 本期应发 is the sum of the slip's income lines (a separately taxed bonus included), so the slip adds up
    const lineSources = await loadSalaryLineSources(trx, companyId, month);
    const now = nowIso();
    const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
    const merged = (r: Record<string, unknown>) => r.bonusMerged === 1 || r.bonusMerged === true || r.bonusMerged === '1';
    const all = rows.map((r, i) => {
      const person = staffOf.get(String(r.idCard).toUpperCase());
      const gross = salaryPayslipLines(lineSources.get(String(r.idCard).toUpperCase()) ?? {}).gross;
      const fiveOne = n(r.fiveOne);
      const tax = n(r.tax);
      const notes = [String(r.taxesType ?? '') === '劳务报酬' ? '劳务报酬按次预扣' : ''].filter(Boolean);
      return {
        month,
        xuhao: i + 1,
        // U14: 工号 is the person's number in 员工管理 (the staff record of this company), the only staff number kept
        gonghao: person ? String(person.staffId) : null,
        name: r.staffName ?? null,
        id_card: r.idCard,
        bank: person?.bank ?? null,
        bank_number: person?.bankNumber ?? null,
        beizhu: notes.length ? notes.join('；') : null,
        mingcheng: r.companyName ?? null,
        jichu: n(r.salary),
        // every amount of 应发 on its own line (P7): 基础工资 + 加班费 − 扣款（税前） = 本期应发
        jiaban: n(r.jiaban),
        koukuan: n(r.koukuan),
        benqi: gross,
        yanglao: n(r.yanglao),
        yiliao: n(r.yiliao),
        shiye: n(r.shiye),
        gongjijin: n(r.gongjijin),
        shebaogeren: n(r.yanglao) + n(r.yiliao) + n(r.shiye),
        shebaogongjijin: fiveOne,
        // U13: a month's share below the deductions is no taxable income: 0 (the sheet says why)
        yingshui: r.taxableThisMonth === null || r.taxableThisMonth === undefined ? null : Math.max(0, Number(r.taxableThisMonth)),
        yingna: tax,
        shuihou: gross - fiveOne - tax - (merged(r) ? 0 : n(r.bonusTax)),
        // the annual bonus on its own lines (payroll-rules.md §1.5): 年终1 the bonus, 年终3 its separate tax; a
        // merged bonus is inside 本期应发 and its tax inside 应纳税额, so only 年终1 shows it
        nianzhong1: n(r.bonus) || null,
        nianzhong3: !merged(r) && n(r.bonusTax) ? n(r.bonusTax) : null,
        // PB4: what the pay could not cover, each on its own line (empty when nothing)
        // issue 20 item 7: 补发 / 补扣 (in 本期应发), 经济补偿金 and its separate tax, each on its own line
        bufa: n(r.backPay) || null,
        bukou: n(r.backDeduct) || null,
        jingjibuchang: n(r.severance) || null,
        buchangshui: n(r.severanceTax) || null,
        shangyueweikou: n(r.carriedIn) || null,
        yingkouweikou: n(r.unpaid) || null,
        danweidianfu: n(r.advanced) || null,
        shifa: n(r.realSalary),
        company_id: companyId,
        source: PAYSLIP_SOURCE.generated,
        create_time: now,
        update_time: now,
      };
    });
    // 序号 stays the salary row's place in the month whoever is skipped
    const slips = all.filter((p) => !keep.has(String(p.id_card).toUpperCase()));
    // rows built from the salary figures (any column set): written through the untyped view of the database
    const db = dynamicDb(trx);
    for (let i = 0; i < slips.length; i += 200) await db.insertInto(TABLE).values(slips.slice(i, i + 200)).execute();
    return slips.length;
  });
}
