import type { FastifyInstance } from 'fastify';
import { applySiAdjust, downloadSiAdjustTemplate, listSiBackItems, previewSiAdjust, type UploadedBase, uploadedBase, uploadSiAdjust } from '@app/shared/contracts/siAdjust';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { issueMessage } from '@app/shared/errors/zodIssues';
import { fenToYuan } from '@app/shared/payroll';
import { renderListFor, requestLanguage } from '../../core/errorLanguage.ts';
import { AppError } from '../../core/errors.ts';
import { sendXlsx } from '../../core/excel/writeXlsx.ts';
import { readUpload } from '../../crud/excel.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { loadVisibleCompany } from '../payroll/companies.ts';
import { planAdjustment } from './adjust.ts';
import { applyAdjustment } from './apply.ts';
import { BACK_ITEMS } from './backItems.ts';
import { registerSiRecon } from './reconRoutes.ts';
import { idCardCell, moneyCell, readSheetByHeader, type SheetColumn, SheetError, textCell } from './sheet.ts';

/** 调基 and 社保平账 (issue 24 items 2 and 4): routes; the rules are in adjust.ts, apply.ts and recon.ts. */

type BaseCol = 'idCard' | 'staffName' | 'base' | 'yanglao' | 'yiliao' | 'shiye' | 'gongshang' | 'shengyu' | 'gongjijin';
const BASE_COLUMNS: readonly SheetColumn<BaseCol>[] = [
  { name: 'idCard', label: '身份证号', aliases: ['身份证号', '身份证号码', '公民身份号码', '证件号码'], required: true },
  { name: 'staffName', label: '姓名', aliases: ['姓名'] },
  { name: 'base', label: '社保基数', aliases: ['社保基数', '社保缴费基数', '缴费基数', '月均工资收入', '新基数'] },
  { name: 'yanglao', label: '养老保险基数', aliases: ['养老保险基数', '养老基数'] },
  { name: 'yiliao', label: '医疗保险基数', aliases: ['医疗保险基数', '医疗基数'] },
  { name: 'shiye', label: '失业保险基数', aliases: ['失业保险基数', '失业基数'] },
  { name: 'gongshang', label: '工伤保险基数', aliases: ['工伤保险基数', '工伤基数'] },
  { name: 'shengyu', label: '生育保险基数', aliases: ['生育保险基数', '生育基数'] },
  { name: 'gongjijin', label: '公积金基数', aliases: ['公积金基数', '住房公积金基数', '公积金缴存基数'] },
];

export async function registerSiAdjust(app: FastifyInstance): Promise<void> {
  routeContract(app, previewSiAdjust, async (req) => {
    const company = await loadVisibleCompany(app, req, app.ctx.db, req.body.companyId);
    return (await planAdjustment(app.ctx.db, company, req.body, requestLanguage(req.headers['accept-language']))).preview;
  });

  routeContract(app, applySiAdjust, async (req) => {
    const company = await loadVisibleCompany(app, req, app.ctx.db, req.body.companyId);
    return applyAdjustment(app, req, company, req.body);
  });

  routeContract(app, uploadSiAdjust, async (req) => {
    const upload = await readUpload(req);
    let lines: Awaited<ReturnType<typeof readSheetByHeader<BaseCol>>>;
    try {
      lines = await readSheetByHeader(upload.data, BASE_COLUMNS);
    } catch (err) {
      if (err instanceof SheetError) throw new AppError('SIADJUST_UPLOAD_UNREADABLE', { reason: { code: err.code, params: err.params } });
      throw err;
    }
    const bases: UploadedBase[] = [];
    // a line's reasons are codes; the answer renders them in the request's language (the contract carries text)
    const language = requestLanguage(req.headers['accept-language']);
    const problems: { line: number; message: string }[] = [];
    for (const l of lines) {
      const row: Record<string, unknown> = { idCard: idCardCell(l.cells.idCard) };
      const name = textCell(l.cells.staffName);
      if (name) row.staffName = name.slice(0, 50);
      const bad: CodedMessage[] = [];
      for (const c of BASE_COLUMNS.slice(2)) {
        const fen = moneyCell(l.cells[c.name]);
        if (fen === undefined) bad.push({ code: 'SIADJUST_LINE_NOT_AMOUNT', params: { label: c.label } });
        else if (fen !== null) row[c.name] = fenToYuan(fen);
      }
      const parsed = uploadedBase.safeParse(row);
      if (bad.length || !parsed.success) {
        const reasons = [...bad, ...(parsed.success ? [] : parsed.error.issues.map((i) => issueMessage(i, row)))];
        problems.push({ line: l.line, message: renderListFor({ list: reasons, joiner: 'comma' }, language) });
        continue;
      }
      bases.push(parsed.data);
    }
    if (!bases.length) throw new AppError('SIADJUST_UPLOAD_EMPTY');
    return { bases, problems };
  });

  routeContract(app, downloadSiAdjustTemplate, async (_req, reply) => {
    const columns = ['身份证号', '姓名', '社保基数', '公积金基数'].map((header) => ({ header, width: header === '身份证号' ? 22 : 14 }));
    return sendXlsx(reply, { fileName: '新基数导入模板', columns, rows: [] });
  });

  routeContract(app, listSiBackItems, async (req) => {
    const company = await loadVisibleCompany(app, req, app.ctx.db, req.query.companyId);
    const page = req.query.page ?? 0;
    const size = req.query.size ?? 20;
    let base = app.ctx.db.selectFrom(BACK_ITEMS).where('company_id', '=', company.id);
    if (req.query.targetMonth) base = base.where('target_month', '=', req.query.targetMonth);
    const totals = await base
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_self').as('self'), eb.fn.sum<number>('amount_company').as('company')])
      .executeTakeFirst();
    const rows = await base.selectAll().orderBy('target_month', 'desc').orderBy('id').limit(size).offset(page * size).execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        idCard: String(r.id_card),
        staffName: r.staff_name ?? null,
        insurance: r.insurance as UploadedBaseInsurance,
        referMonth: String(r.refer_month),
        targetMonth: String(r.target_month),
        self: fenToYuan(Number(r.amount_self)),
        company: fenToYuan(Number(r.amount_company)),
        source: r.source === 'recon' ? ('recon' as const) : ('adjust' as const),
        reason: r.reason ?? null,
        createBy: r.create_by ?? null,
        createTime: r.create_time ?? null,
      })),
      totalElements: Number(totals?.n ?? 0),
      totalSelf: fenToYuan(Number(totals?.self ?? 0)),
      totalCompany: fenToYuan(Number(totals?.company ?? 0)),
    };
  });

  registerSiRecon(app);
}

type UploadedBaseInsurance = 'yanglao' | 'yiliao' | 'shiye' | 'gongshang' | 'shengyu' | 'gongjijin';
