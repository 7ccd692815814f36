import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import { permissionCodes } from '@app/shared/resource';
import { PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import { salaryResource } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import { nowIso } from '../../core/db.ts';
import { badRequest, conflict, forbidden } from '../../core/errors.ts';
import { exportColumn, exportFields, importFields } from '../../core/excel/columns.ts';
import { sendXlsx } from '../../core/excel/writeXlsx.ts';
import { parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { type AnySelect, type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { readUpload } from '../../crud/excel.ts';
import { loadVisibleCompany } from './companies.ts';
import { parseCompanyMonth } from './months.ts';
import { readPayslipSheet, savePayslipRows } from './payslipImport.ts';
import { fieldColumn, isConfirmed, SALARY_TABLE } from './salaryStore.ts';

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
  if (isOrdinaryEmployee(req)) throw forbidden('普通员工只能查看本人工资条');
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

  const selectCodes = permissionCodes(payslipResource, 'export');
  const createCodes = permissionCodes(payslipResource, 'import');

  const exportAll = async (req: FastifyRequest, reply: FastifyReply) => exportPayslips(resource, req, reply, req.query as Record<string, unknown>);
  app.get('/api/export/acPayslipAll', { config: { auth: selectCodes, log: '导出工资条' } }, exportAll);
  // The generic resource screen exports through /api/export/<name>: the same rows.
  app.get('/api/export/acPayslip', { config: { auth: selectCodes, log: '导出工资条' } }, exportAll);

  app.get('/api/export/acPayslipOne', { config: { auth: selectCodes, log: '导出个人工资条' } }, async (req, reply) => {
    const query = { ...(req.query as Record<string, unknown>) };
    const idCard = typeof query.idCard === 'string' ? query.idCard.trim().toUpperCase() : '';
    delete query.idCard;
    delete query.name;
    if (!isOrdinaryEmployee(req) && !idCard) throw badRequest('请提供身份证号', { idCard: '请提供身份证号' });
    return exportPayslips(resource, req, reply, query, isOrdinaryEmployee(req) ? undefined : idCard);
  });

  app.post('/api/download/acPayslip', { config: { auth: [...new Set([...createCodes, ...selectCodes])], log: '' } }, async (req, reply) => {
    refuseEmployee(req);
    const columns = importFields(payslipResource).map((f) => ({ header: f.label, kind: f.kind === 'money' ? ('money' as const) : f.kind === 'int' ? ('int' as const) : ('text' as const) }));
    return sendXlsx(reply, { fileName: `${payslipResource.excel.templateName}`, columns, rows: [] });
  });

  app.post('/api/import/acPayslip', { config: { auth: createCodes, log: '导入工资条' } }, async (req) => {
    refuseEmployee(req);
    const file = (await readUpload(req)).data;
    const rows = await readPayslipSheet(file);
    const { inserted, updated } = await savePayslipRows(app.ctx.db, rows);
    return { total: rows.length, inserted, updated, failed: 0, errors: [] };
  });

  app.post('/api/acPayslip/generate', { config: { auth: createCodes, log: '生成工资条' } }, async (req) => {
    refuseEmployee(req);
    const { companyId, month } = parseCompanyMonth(req.body);
    const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
    const n = await generatePayslips(app, company.id, month);
    return { message: `生成成功，共${n}条` };
  });
}

async function exportPayslips(
  resource: RegisteredResource,
  req: FastifyRequest,
  reply: FastifyReply,
  query: Record<string, unknown>,
  exactIdCard?: string,
): Promise<FastifyReply> {
  const { sort } = parsePaging(query, sortableColumns(payslipResource), payslipResource.defaultSort);
  let filtered = await resource.listQuery(req, query);
  if (exactIdCard) filtered = filtered.where(`${TABLE}.id_card`, '=', exactIdCard);
  const columns = exportFields(payslipResource).map((f) => exportColumn(f, { dictLabelOf: new Map(), refLabelOf: new Map() }));
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

const S = (name: string) => fieldColumn(salaryResource, name);
const ST = (name: string) => fieldColumn(staffResource, name);

/**
 * Payslips of a confirmed month from its salary rows (payroll-rules.md §5.3): jichu = 基本工资, benqi = 应发
 * (基本工资 + 加班费 − 扣款, both noted in 备注), yanglao/yiliao/shiye/gongjijin = the personal items,
 * shebaogeren = social insurance, shebaogongjijin = 五险一金, yingshui = this month's taxable income (may be
 * negative; for a person paid by two client companies it is the person's figure), yingna = tax,
 * shuihou = 应发 − 五险一金 − 个税, shifa = 实发. Earlier generated payslips of the company's month are replaced.
 */
export async function generatePayslips(app: FastifyInstance, companyId: number, month: string): Promise<number> {
  return app.ctx.db.transaction().execute(async (trx) => {
    if (!(await isConfirmed(trx, companyId, month))) throw conflict('本月工资尚未确认，不能生成工资条', 'SALARY_NOT_CONFIRMED');
    const fields = ['companyName', 'staffName', 'idCard', 'taxesType', 'salary', 'jiaban', 'koukuan', 'gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'tax', 'realSalary', 'taxableThisMonth'];
    const rows = (await trx
      .selectFrom(SALARY_TABLE)
      .select(fields.map((f) => `${S(f)} as ${f}`) as never)
      .where(S('companyId'), '=', companyId)
      .where(S('month'), '=', month)
      .orderBy(S('id'))
      .execute()) as Record<string, unknown>[];
    const staff = (await trx
      .selectFrom(staffResource.table)
      .select([`${ST('idCard')} as idCard`, `${ST('salaryBank')} as bank`, `${ST('bankcardNumber')} as bankNumber`] as never)
      .where(ST('companyId'), '=', companyId)
      .execute()) as { idCard: string; bank: string | null; bankNumber: string | null }[];
    const bankOf = new Map(staff.map((s) => [String(s.idCard).toUpperCase(), s]));
    await trx.deleteFrom(TABLE).where('company_id', '=', companyId).where('month', '=', month).where('source', '=', PAYSLIP_SOURCE.generated).execute();
    const now = nowIso();
    const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
    const yuan = (fen: number) => (fen / 100).toFixed(2);
    const slips = rows.map((r, i) => {
      const gross = n(r.gross);
      const fiveOne = n(r.fiveOne);
      const tax = n(r.tax);
      const notes = [
        n(r.jiaban) ? `加班费${yuan(n(r.jiaban))}元` : '',
        n(r.koukuan) ? `扣款${yuan(n(r.koukuan))}元` : '',
        String(r.taxesType ?? '') === '劳务报酬' ? '劳务报酬按次预扣' : '',
      ].filter(Boolean);
      const bank = bankOf.get(String(r.idCard).toUpperCase());
      return {
        month,
        xuhao: i + 1,
        name: r.staffName ?? null,
        id_card: r.idCard,
        bank: bank?.bank ?? null,
        bank_number: bank?.bankNumber ?? null,
        beizhu: notes.length ? notes.join('；') : null,
        mingcheng: r.companyName ?? null,
        jichu: n(r.salary),
        benqi: gross,
        yanglao: n(r.yanglao),
        yiliao: n(r.yiliao),
        shiye: n(r.shiye),
        gongjijin: n(r.gongjijin),
        shebaogeren: n(r.yanglao) + n(r.yiliao) + n(r.shiye),
        shebaogongjijin: fiveOne,
        yingshui: r.taxableThisMonth === null || r.taxableThisMonth === undefined ? null : Number(r.taxableThisMonth),
        yingna: tax,
        shuihou: gross - fiveOne - tax,
        shifa: n(r.realSalary),
        company_id: companyId,
        source: PAYSLIP_SOURCE.generated,
        create_time: now,
        update_time: now,
      };
    });
    for (let i = 0; i < slips.length; i += 200) await trx.insertInto(TABLE).values(slips.slice(i, i + 200)).execute();
    return slips.length;
  });
}
