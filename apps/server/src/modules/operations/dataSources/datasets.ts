import { dynamicDb } from '../../../core/db.ts';
import { sql } from 'kysely';
import { type CrudAction, columnOf, type FieldDef, hasPermission, permissionCodes, type ResourceDef } from '@app/shared/resource';
import { companyResource } from '@app/shared/resources/company';
import {
  accDepartResource,
  accEntryResource,
  accGjjResource,
  accInternResource,
  accJobResource,
  accSalaryResource,
  accSocialResource,
  accTrainResource,
} from '@app/shared/resources/hrRecords';
import { payslipResource } from '@app/shared/resources/payslip';
import { salaryResource } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import type { CurrentUser } from '../../../core/context.ts';
import type { Db } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { computeDeptScope, type DeptScope, whereDeptInScope } from '../../../core/rbac.ts';
import { refAs } from '../../../core/selectAs.ts';
import type { AnySelect } from '../../../crud/registerResource.ts';
import { rowToApi } from '../../../crud/rowMapping.ts';
import type { DataSourceReader, OpenOptions, TableField } from './types.ts';

/**
 * Custom data sources are projections of our own datasets (design §2.4): the staff roster, monthly salaries,
 * payslips, client companies and the HR records. A projection is read as its owner would see the rows on the
 * screens: only with the list permission of the dataset's screen, and only the companies in the owner's data
 * scope (the rule of the dispatch and payroll modules: a company belongs to a department; staff, salary and
 * payslip rows to a company; HR records, which name no company id, to the staff with their ID card). An
 * ordinary employee (普通员工) sees only their own payslips, as on the payslip screen. A scheduled run thus never
 * sees more than its creator could see.
 */

type ScopeRule =
  | { by: 'dept'; column: string }
  | { by: 'company'; column: string }
  | { by: 'staffIdCard'; column: string };

export interface Dataset {
  key: string;
  label: string;
  def: ResourceDef;
  scope: ScopeRule;
}

const HR_SCOPE: ScopeRule = { by: 'staffIdCard', column: 'id_card' };

export const DATASETS: Dataset[] = [
  { key: 'accountsStaff', label: '员工花名册', def: staffResource, scope: { by: 'company', column: 'company_id' } },
  { key: 'accountsSalary', label: '月度工资', def: salaryResource, scope: { by: 'company', column: 'company_id' } },
  { key: 'acPayslip', label: '工资条', def: payslipResource, scope: { by: 'company', column: 'company_id' } },
  { key: 'accountsCompany', label: '用工单位', def: companyResource, scope: { by: 'dept', column: 'dept_id' } },
  { key: 'accountsStaffExtra', label: '员工加班扣款', def: staffExtraResource, scope: { by: 'staffIdCard', column: 'staff_id_card' } },
  { key: 'accEntry', label: '入职记录', def: accEntryResource, scope: HR_SCOPE },
  { key: 'accDepart', label: '离职记录', def: accDepartResource, scope: HR_SCOPE },
  { key: 'accJob', label: '调岗记录', def: accJobResource, scope: HR_SCOPE },
  { key: 'accIntern', label: '实习记录', def: accInternResource, scope: HR_SCOPE },
  { key: 'accTrain', label: '培训记录', def: accTrainResource, scope: HR_SCOPE },
  { key: 'accSocial', label: '社保记录', def: accSocialResource, scope: HR_SCOPE },
  { key: 'accGjj', label: '公积金账户', def: accGjjResource, scope: HR_SCOPE },
  { key: 'accSalary', label: '工资记录', def: accSalaryResource, scope: HR_SCOPE },
];

export function datasetOf(key: string): Dataset | undefined {
  return DATASETS.find((d) => d.key === key);
}

/** Fields a projection may show: everything the screens show, never a secret. */
export function datasetFields(ds: Dataset): FieldDef[] {
  return ds.def.fields.filter((f) => !f.secret);
}

/** The column name a field carries in the rows: its label, made unique with the API name when two share one. */
export function datasetColumnNames(ds: Dataset): Map<string, string> {
  const fields = datasetFields(ds);
  const count = new Map<string, number>();
  for (const f of fields) count.set(f.label, (count.get(f.label) ?? 0) + 1);
  return new Map(fields.map((f) => [f.name, count.get(f.label)! > 1 ? `${f.label}(${f.name})` : f.label]));
}

/** The `tableData` of a projection of `fieldNames` (API names, in the order given); throws for unknown ones. */
export function projectionTableData(ds: Dataset, fieldNames: string[]): TableField[] {
  const names = datasetColumnNames(ds);
  const byName = new Map(datasetFields(ds).map((f) => [f.name, f]));
  const unknown = fieldNames.filter((n) => !byName.has(n));
  if (unknown.length) throw new AppError('CUSTOM_DATASOURCE_FIELDS', { dataset: ds.label, fields: unknown.join('、') });
  return [...new Set(fieldNames)].map((n) => ({ fieldName: names.get(n)!, field: n, type: byName.get(n)!.kind }));
}

const LIST: CrudAction = 'list';

/** Throws 403 unless `owner` may list the dataset's screen. */
export function assertMayReadDataset(owner: Pick<CurrentUser, 'permissions'>, ds: Dataset): void {
  if (!hasPermission(owner.permissions, permissionCodes(ds.def, LIST))) throw new AppError('DATASOURCE_DATASET_FORBIDDEN', { dataset: ds.label });
}

/** Restricts a query on the dataset's table to what `scope` (the owner's departments) may see. */
export function scopeDataset(db: Db, qb: AnySelect, ds: Dataset, scope: DeptScope, owner: Pick<CurrentUser, 'username' | 'jobName'>): AnySelect {
  const table = ds.def.table;
  if (ds.key === 'acPayslip' && owner.jobName === ORDINARY_EMPLOYEE_JOB) {
    const u = owner.username.trim();
    qb = qb.where(`${table}.id_card`, 'in', [...new Set([u, u.toUpperCase()])]);
  }
  if (scope === null) return qb;
  if (scope.length === 0) return qb.where(sql<boolean>`1 = 0`);
  const visibleCompanies = whereDeptInScope(db.selectFrom('accounts_company').select('accounts_company.id'), 'accounts_company.dept_id', scope);
  switch (ds.scope.by) {
    case 'dept':
      return whereDeptInScope(qb, `${table}.${ds.scope.column}`, scope);
    case 'company':
      return qb.where(`${table}.${ds.scope.column}`, 'in', visibleCompanies);
    case 'staffIdCard':
      return qb.where(
        `${table}.${ds.scope.column}`,
        'in',
        db.selectFrom('accounts_staff').select('accounts_staff.id_card').where('accounts_staff.company_id', 'in', visibleCompanies),
      );
  }
}

/** Rows fetched per query: keyset pages by id, so memory stays flat however large the dataset. */
const PAGE_ROWS = 1000;

/** Opens a projection for `owner` (checked: enabled, holds the dataset's list permission; rows scoped). */
export async function openDatasetRead(db: Db, ds: Dataset, tableData: TableField[], owner: CurrentUser, opts: OpenOptions = {}): Promise<DataSourceReader> {
  if (!owner.enabled) throw new AppError('DATASOURCE_OWNER_DISABLED', {});
  assertMayReadDataset(owner, ds);
  const scope = await computeDeptScope(db, owner);
  const byName = new Map(datasetFields(ds).map((f) => [f.name, f]));
  const projected = tableData.filter((t) => t.field && byName.has(t.field));
  const fields = projected.map((t) => t.fieldName);
  const columns = [...new Set(['id', ...projected.map((t) => columnOf(byName.get(t.field!)!))])];
  const table = ds.def.table;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  let stopped = false;
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    let lastId = 0;
    let count = 0;
    for (;;) {
      if (stopped) return;
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
      const take = Math.min(PAGE_ROWS, limit - count);
      if (take <= 0) return;
      // a data set reads whichever table and columns its administrator chose: only known at run time
      const qb = scopeDataset(db, dynamicDb(db).selectFrom(table).select(columns.map((c) => refAs(`${table}.${c}`, c))).where(`${table}.id`, '>', lastId), ds, scope, owner);
      const page = (await qb.orderBy(`${table}.id`, 'asc').limit(take).execute()) as Record<string, unknown>[];
      for (const r of page) {
        const api = rowToApi(ds.def, r);
        const row: Record<string, unknown> = {};
        for (const t of projected) row[t.fieldName] = api[t.field!] ?? null;
        count++;
        yield row;
      }
      if (page.length < take) return;
      lastId = Number(page[page.length - 1].id);
    }
  }
  return {
    fields,
    rows: rows(),
    close: async () => {
      stopped = true;
    },
  };
}
