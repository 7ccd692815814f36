import type { FastifyInstance } from 'fastify';
import { exportSiChanges, listSiChangeTemplates, previewSiChanges, type SiChangeRow } from '@app/shared/contracts/siChanges';
import { fenText } from '@app/shared/payout/bankLayout';
import { siChangeTemplateResource } from '@app/shared/resources/siChangeTemplate';
import { SI_CHANGE_KIND_LABELS, SI_CHANGE_KINDS, type SiChangeLayout, SiChangeLayoutError, parseSiChangeLayout } from '@app/shared/socialInsurance/siChangeLayout';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { LAYOUT_MIME } from '../../core/excel/layoutFile.ts';
import { attachmentDisposition } from '../../core/excel/writeXlsx.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { loadVisibleCompany } from '../payroll/companies.ts';
import { dictionaryMap } from '../system/dict.ts';
import { changeFileProblems, writeChangeFile } from './changeFile.ts';
import { type ChangePerson, changeLists, mainBase } from './changes.ts';

/**
 * 社保管理 › 增减员 and 系统工具 › 社保模板 (issue 24 item 3): the templates (a plain resource whose layout is checked
 * on save), the preview of a company's month and the file in a template's layout. Every route checks the company
 * against the caller's data scope.
 */
export function registerSiChanges(app: FastifyInstance): void {
  registerResource(app, siChangeTemplateResource, {
    beforeWrite: (values, { existing }) => {
      layoutOrRefuse({ ...(existing ?? {}), ...values });
    },
  });

  const db = () => app.ctx.db;

  routeContract(app, listSiChangeTemplates, async () => {
    const rows = await db().selectFrom('accounts_si_change_template').selectAll().orderBy('id').execute();
    const content = [];
    for (const row of rows) {
      const api = rowToApi(siChangeTemplateResource, row as Record<string, unknown>);
      try {
        const layout = parseSiChangeLayout(api);
        content.push({ id: Number(row.id), templateName: String(api.templateName), region: layout.region, target: layout.target, kinds: SI_CHANGE_KINDS.filter((k) => layout.columns[k].length > 0) });
      } catch {
        // a template broken by a direct database edit is left out of the choices (saving through the screen checks it)
      }
    }
    return { content };
  });

  routeContract(app, previewSiChanges, async (req) => {
    const { companyId, month, templateId, kind = 'add', page = 0, size = 10 } = req.query;
    await loadVisibleCompany(app, req, db(), companyId);
    const template = await loadTemplate(db(), templateId);
    const lists = await changeLists(db(), companyId, month, template.layout.target);
    const list = lists[kind];
    const base = mainBase(template.layout.target);
    const yuan = (fen: number) => Number(fenText(fen));
    const rowOf = (p: ChangePerson): SiChangeRow => ({
      staffId: p.staffId,
      staffName: p.staffName,
      idCard: p.idCard,
      censusType: p.censusType,
      phone: p.phone,
      startMonth: p.startMonth,
      reason: p.reason,
      oldBase: kind === 'add' || !p.before ? null : yuan(p.before.bases[base]),
      newBase: kind === 'remove' ? null : yuan(p.now.bases[base]),
    });
    return {
      target: template.layout.target,
      counts: { add: lists.add.length, remove: lists.remove.length, base: lists.base.length },
      content: list.slice(page * size, page * size + size).map(rowOf),
      totalElements: list.length,
    };
  });

  routeContract(app, exportSiChanges, async (req, reply) => {
    const { companyId, month, templateId, kind } = req.query;
    const company = await loadVisibleCompany(app, req, db(), companyId);
    const template = await loadTemplate(db(), templateId);
    if (!template.layout.columns[kind].length) throw new AppError('SICHANGES_KIND_NOT_IN_TEMPLATE', { name: template.name, kind: SI_CHANGE_KIND_LABELS[kind] });
    const people = (await changeLists(db(), companyId, month, template.layout.target))[kind];
    const census = (await dictionaryMap(app, ['census_type'])).census_type ?? [];
    const info = { companyName: company.companyName, month, kind, censusLabels: Object.fromEntries(census.map((e) => [e.value, e.label])) };
    const problem = changeFileProblems(template.layout, info, people)[0];
    if (problem) throw new AppError('SICHANGES_NOT_ENCODABLE', { name: people[problem.row].staffName, column: problem.column, encoding: template.layout.encoding });
    const { bytes, fileName } = writeChangeFile(template.layout, info, people);
    reply.header('content-type', LAYOUT_MIME[template.layout.fileType]).header('content-disposition', attachmentDisposition(fileName)).header('cache-control', 'no-store');
    return reply.send(bytes);
  });
}

/** A template as a layout, or the refusal naming the template and what is wrong in it. */
async function loadTemplate(db: Db, id: number): Promise<{ id: number; name: string; layout: SiChangeLayout }> {
  const row = await db.selectFrom('accounts_si_change_template').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('SICHANGES_TEMPLATE_NOT_FOUND');
  const api = rowToApi(siChangeTemplateResource, row as Record<string, unknown>);
  return { id, name: String(api.templateName), layout: layoutOrRefuse(api) };
}

function layoutOrRefuse(api: Record<string, unknown>): SiChangeLayout {
  try {
    return parseSiChangeLayout(api);
  } catch (err) {
    if (err instanceof SiChangeLayoutError) throw new AppError('SICHANGETEMPLATE_INVALID', { name: String(api.templateName ?? ''), label: err.part, reason: err.reason });
    throw err;
  }
}
