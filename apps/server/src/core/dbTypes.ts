import type { Generated, Kysely } from 'kysely';
import { columnFields, columnOf, type FieldDef, type FieldKind, type ResourceDef } from '@app/shared/resource';
import { RESOURCE_DEFINITIONS } from '@app/shared/resources/index';
import { confirmLogResource } from '@app/shared/resources/salary';

/**
 * The database as a Kysely type (`Kysely<DB>`), generated from the same sources as the tables: each
 * definition's fields (column = `column` or snake_case of the name, stored type from its kind) plus the
 * columns the definitions do not declare, and the hand-made tables (links, batches, sync state).
 * test/db-types.test.ts compares `DB_COLUMNS` with the real tables on every database.
 */

/**
 * The definitions that describe their table: every shared resource (RESOURCE_DEFINITIONS) and the salary
 * confirm log, which only the payroll routes use. A definition whose table is listed in HAND_TABLES below (its
 * stored columns differ from its fields) is typed from there instead.
 */
const DESCRIBED_BY_DEFINITIONS = [...RESOURCE_DEFINITIONS, confirmLogResource] as const;

/** Columns of definition tables that no field declares (server-managed). */
export const EXTRA_COLUMNS = {
  sys_user: { token_version: 'int' },
  sys_log: { exception_detail: 'text' },
  sys_dict: { update_time: 'datetime' },
  sys_dict_detail: { update_time: 'datetime' },
} as const satisfies Record<string, Record<string, FieldKind>>;

/**
 * Tables that no definition describes: column -> stored kind. A plain kind is a nullable column; `kind!` is NOT
 * NULL without a default (required on insert), `kind=` NOT NULL with a default (optional on insert). `id` is
 * always the generated key. Read from the migrations (apps/server/migrations); test/db-types.test.ts checks the
 * names against the migrated tables and fails on a table that is missing here.
 */
export const HAND_TABLES = {
  sys_users_roles: { user_id: 'int', role_id: 'int' },
  sys_roles_menus: { role_id: 'int', menu_id: 'int' },
  sys_roles_permissions: { role_id: 'int', permission_id: 'int' },
  sys_roles_depts: { role_id: 'int', dept_id: 'int' },
  accounts_salary_batch: { id: 'int', company_id: 'ref', month: 'month', version: 'int', create_time: 'datetime', update_time: 'datetime' },
  sys_sync_state: { kind: 'string', sync_key: 'string', row_id: 'int', shipped: 'text', update_time: 'datetime' },
  // the year-to-date tax ledger (migration 0019, modules/payroll/ytdLedger.ts)
  accounts_salary_ytd: {
    id: 'int',
    dispatch_company: 'string!',
    id_card: 'string!',
    month: 'month!',
    months: 'int!',
    gross: 'money!',
    five_one: 'money!',
    deduct: 'money!',
    other_deduct: 'money!',
    tax: 'money!',
    bonus_company: 'string',
    bonus_month: 'month',
    create_time: 'datetime',
    update_time: 'datetime',
  },
  // 反确认 audit rows (migration 0009, modules/payroll/salaryCorrections.ts)
  accounts_salary_correction: {
    id: 'int',
    company_id: 'ref',
    company_name: 'string',
    month: 'month',
    reason: 'string',
    username: 'string',
    cname: 'string',
    row_count: 'int',
    payslips_withdrawn: 'int',
    before_figures: 'text',
    after_figures: 'text',
    reconfirmed_by: 'string',
    reconfirm_time: 'string',
    create_time: 'datetime',
    update_time: 'datetime',
  },
  // 个税专项附加扣除 by month (migration 0018); amounts in fen
  accounts_tax_deduction: { id: 'int', dispatch_company: 'string!', staff_name: 'string', id_card: 'idCard!', month: 'month!', child_education: 'money', continuing_education: 'money', housing_loan_interest: 'money', housing_rent: 'money', elderly_support: 'money', infant_care: 'money', serious_illness: 'money', health_insurance: 'money', private_pension: 'money', remark: 'string', create_time: 'datetime', update_time: 'datetime',
    // what the statutory limits depend on (migration 0024)
    child_education_children: 'int', infant_care_children: 'int', elderly_only_child: 'bool', housing_rent_city_tier: 'dict', certificate_this_month: 'bool' },
  // scheduler (migration 0010): the system jobs and the run log of every job, system or model task
  sys_scheduled_job: { id: 'int', job_name: 'string!', bean_name: 'string!', method_name: 'string!', params: 'text', cron_expression: 'string!', is_pause: 'bool=', remark: 'string', consecutive_failures: 'int=', seed_key: 'string', last_run_time: 'datetime', last_success: 'bool', create_time: 'datetime', update_time: 'datetime',
    // run options and owner (migration 0027)
    retry_count: 'int=', retry_interval_sec: 'int=', misfire_policy: 'string=', allow_overlap: 'bool=', owner_id: 'ref' },
  // in-app notices behind the header's bell, one row per recipient (migration 0027)
  sys_notice: { id: 'int', user_id: 'int!', kind: 'string!', title: 'string!', content: 'text', link: 'string', is_read: 'bool=', create_time: 'datetime', update_time: 'datetime' },
  // client settlement statements, their lines, receipts and state history (migration 0028, modules/settlement)
  accounts_settlement: { id: 'int', company_id: 'int!', company_name: 'string', dispatch_company: 'string', month: 'month!', version: 'int!', state: 'string!', needs_reopen: 'bool=', superseded: 'bool=', heads: 'int!', current_due: 'money!', arrears_in: 'money!', total_due: 'money!', received: 'money=', vat_regime: 'string', header: 'text', terms: 'text', dispute_reason: 'string', invoice_no: 'string', invoice_date: 'date', invoice_amount: 'money', generated_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_settlement_line: { id: 'int', settlement_id: 'int!', seq: 'int!', staff_name: 'string', id_card_masked: 'string', amounts: 'text' },
  accounts_settlement_receipt: { id: 'int', settlement_id: 'int!', company_id: 'int!', month: 'month!', amount: 'money!', receipt_date: 'date!', note: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_settlement_event: { id: 'int', settlement_id: 'int!', from_state: 'string', to_state: 'string!', note: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  // payout batches to the bank and their payees with the bank's answer (migration 0029, modules/payout)
  accounts_payout_batch: { id: 'int', company_id: 'int!', company_name: 'string', dispatch_company: 'string', month: 'month!', template_id: 'int!', template_name: 'string', kind: 'string!', parent_id: 'int', state: 'string!', row_count: 'int!', total: 'money!', file_name: 'string', export_time: 'datetime', export_by: 'string', return_time: 'datetime', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_payout_row: { id: 'int', batch_id: 'int!', seq: 'int!', salary_id: 'int', staff_id: 'int', staff_name: 'string!', id_card: 'string', account: 'string!', account_name: 'string!', bank_name: 'string', phone: 'string', amount: 'money!', luhn_override: 'bool=', result: 'string=', reason: 'string', repaid_by: 'int', create_time: 'datetime', update_time: 'datetime' },
  // IIT reconciliation with ITS, its acknowledgements, payout overrides and the ITS person list (migration 0031, modules/iit)
  accounts_iit_reconcile: { id: 'int', dispatch_company: 'string!', month: 'month!', file_name: 'string', ours_count: 'int!', its_count: 'int!', diff_count: 'int!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_diff: { id: 'int', reconcile_id: 'int!', kind: 'string!', id_card: 'string!', staff_name: 'string', ours: 'money', its: 'money', ack_reason: 'string', ack_by: 'string', ack_time: 'datetime', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_override: { id: 'int', batch_id: 'int!', dispatch_company: 'string!', month: 'month!', reconcile_id: 'int!', open_count: 'int!', reason: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_person: { id: 'int', dispatch_company: 'string!', month: 'month!', id_card: 'string!', staff_name: 'string', leave_date: 'date', status: 'string', create_time: 'datetime', update_time: 'datetime' },
  sys_job_log: { id: 'int', job_key: 'string!', job_name: 'string', bean_name: 'string', method_name: 'string', params: 'text', cron_expression: 'string', trigger_kind: 'string!', fire_time: 'datetime', is_success: 'bool!', time: 'int', exception_detail: 'text', summary: 'string', output_count: 'int', calc_count: 'int', instance: 'string', create_time: 'datetime!' },
  // payslip delivery and the employees' confirmations (migration 0030, modules/payroll/payslipDelivery.ts)
  accounts_payslip_publication: { id: 'int', company_id: 'int!', company_name: 'string', month: 'month!', version: 'int!', state: 'string!', publish_at: 'datetime', published_time: 'datetime', recalled_time: 'datetime', confirm_days: 'int!', published_by: 'string', site_url: 'string', notified_time: 'datetime', notice_summary: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_payslip_receipt: {
    id: 'int', publication_id: 'int!', company_id: 'int!', month: 'month!', version: 'int!', id_card: 'string!', staff_name: 'string', slip: 'text', slip_hash: 'string!', state: 'string!', deadline: 'datetime',
    viewed_time: 'datetime', viewed_ip: 'string', confirmed_time: 'datetime', confirmed_ip: 'string', confirmed_ua: 'string', confirmed_hash: 'string', objection: 'text', objection_time: 'datetime', objection_ip: 'string',
    reply: 'text', reply_time: 'datetime', reply_by: 'string', create_time: 'datetime', update_time: 'datetime',
  },
  // 调基 补差 and 社保平账 (migration 0032, modules/siAdjust)
  accounts_si_adjust_batch: { id: 'int', company_id: 'int!', company_name: 'string', from_month: 'month!', source: 'string!', target_month: 'month', people: 'int!', item_count: 'int!', total_self: 'money!', total_company: 'money!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_back_item: { id: 'int', company_id: 'int!', id_card: 'string!', staff_name: 'string', insurance: 'string!', refer_month: 'month!', target_month: 'month!', amount_self: 'money!', amount_company: 'money!', source: 'string!', batch_id: 'int', recon_line_id: 'int', reason: 'string', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_recon: { id: 'int', company_id: 'int!', company_name: 'string', month: 'month!', file_name: 'string', file_rows: 'int!', matched: 'int!', line_count: 'int!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_recon_line: { id: 'int', recon_id: 'int!', id_card: 'string!', staff_name: 'string', insurance: 'string!', kind: 'string!', bureau_self: 'money', bureau_company: 'money', our_self: 'money', our_company: 'money', state: 'string!', reason: 'string', accepted_by: 'string', accepted_time: 'datetime', target_month: 'month', create_time: 'datetime', update_time: 'datetime' },
  // data sources (migration 0011)
  data_origin: { id: 'int', data_name: 'string!', code: 'string', type: 'string!', db_kind: 'string', db_site: 'string', db_port: 'int', db_user: 'string', db_password_enc: 'text', db_name: 'string', query: 'text', file_key: 'string', file_ref: 'text', file_name: 'string', character_encoding: 'string!', custom_datasource_id: 'ref', table_data: 'text', row_count: 'int', owner_id: 'ref', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  custom_datasource: { id: 'int', name: 'string!', dataset: 'string!', character_encoding: 'string!', table_data: 'text', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  data_source_upload: { id: 'int', storage_key: 'string!', storage_ref: 'text', file_name: 'string!', extension: 'string!', size: 'int!', owner_id: 'int!', create_time: 'datetime' },
  // models, model tasks, their outputs and the dashboard choice (migration 0012)
  analysis_model: { id: 'int', model_name: 'string!', site: 'string!', file_type: 'string!', statu: 'int=', parameter_info: 'text', output_kind: 'string!', builtin: 'bool=', secret_enc: 'text', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  model_task: { id: 'int', job_name: 'string!', is_pause: 'int=', resume_state: 'int=', model_id: 'int!', data_id: 'int!', cron_time: 'string!', params: 'text', owner_id: 'int!', owner_dept_id: 'ref', timeout_sec: 'int=', last_run_at: 'datetime', last_status: 'string', last_traits: 'text', create_time: 'datetime', update_time: 'datetime' },
  model_output: { id: 'int', task_id: 'ref', task_name: 'string', output_kind: 'string!', model_title: 'string', group_name: 'string!', file_name: 'string!', storage_key: 'string!', rows_out: 'int=', bytes: 'int=', owner_dept_id: 'ref', create_time: 'datetime!', provider: 'string=', bucket: 'string=', type: 'string' },
  dashboard_pref: { id: 'int', user_id: 'int!', task_ids: 'string!', update_time: 'datetime' },
  // storage and pictures (migration 0013)
  tool_storage_config: { id: 'int', provider: 'string=', access_key: 'string', secret_key: 'text', bucket: 'string', host: 'string', zone: 'string', type: 'string', endpoint: 'string', update_time: 'datetime' },
  tool_storage_file: { id: 'int', name: 'string!', object_key: 'string!', provider: 'string!', bucket: 'string=', type: 'string', size: 'int', content_type: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_picture: { id: 'int', filename: 'string!', object_key: 'string!', provider: 'string!', bucket: 'string=', type: 'string', size: 'int', width: 'int', height: 'int', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  // e-mail and Alipay (migration 0014); secrets sealed
  tool_email_config: { id: 'int', from_user: 'string', user_name: 'string', pass_sealed: 'text', host: 'string', port: 'int', ssl_enable: 'bool=', update_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_email_log: { id: 'int', subject: 'string', tos: 'text', recipient_count: 'int', status: 'string!', message_id: 'string', error: 'string', kind: 'string', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_alipay_config: { id: 'int', app_id: 'string', seller_id: 'string', private_key_sealed: 'text', public_key_sealed: 'text', gateway: 'string', return_url: 'string', notify_url: 'string', update_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_alipay_order: { id: 'int', out_trade_no: 'string!', subject: 'string!', body: 'string', amount_fen: 'int!', channel: 'string!', state: 'string!', trade_no: 'string', buyer_id: 'string', paid_time: 'datetime', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  // code generator settings (migration 0015); the flags are nullable with a default
  gen_config: { id: 'int', author: 'string', pack: 'string', module_name: 'string', path: 'string', api_path: 'string', cover: 'bool', prefix: 'string', menu_parent: 'string', menu_icon: 'string', create_time: 'datetime', update_time: 'datetime' },
  gen_column: { id: 'int', table_name: 'string!', column_name: 'string!', label: 'string', kind: 'string', column_query: 'string', column_show: 'bool', form_show: 'bool', required: 'bool', dict_name: 'string', sort: 'int', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies Record<string, Record<string, HandColumn>>;

/** A hand table's column: its kind, `!` NOT NULL, `=` NOT NULL with a default. */
type HandColumn = FieldKind | `${FieldKind}!` | `${FieldKind}=`;

/** What a column of each kind holds (money: integer fen; PostgreSQL hands bigint and numeric back as text). */
interface StoredByKind {
  string: string;
  text: string;
  dict: string;
  phone: string;
  email: string;
  idCard: string;
  int: number;
  ref: number;
  money: number | string;
  ratio: number | string;
  date: string;
  month: string;
  datetime: string;
  bool: number;
}
type Stored<K> = K extends keyof StoredByKind ? StoredByKind[K] : never;

/** snake_case of a camelCase name, as `toSnakeCase` does it for the names the definitions use. */
export type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;
type ColumnOf<F extends FieldDef> = F extends { column: infer C extends string } ? C : SnakeCase<F['name']>;
type Column<Name, K> = Name extends 'id' ? Generated<number> : Stored<K> | null;

// (link-table fields, `refMany`, have no column)
type DefinitionTable<D extends ResourceDef> = { [F in D['fields'][number] as F extends { kind: 'refMany' } ? never : ColumnOf<F>]: Column<F['name'], F['kind']> };
type Extra<T> = T extends keyof typeof EXTRA_COLUMNS ? { [C in keyof (typeof EXTRA_COLUMNS)[T]]: Stored<(typeof EXTRA_COLUMNS)[T][C]> | null } : unknown;
type HandColumnType<Name, K> = Name extends 'id'
  ? Generated<number>
  : K extends `${infer B}!`
    ? Stored<B>
    : K extends `${infer B}=`
      ? Generated<Stored<B>>
      : Stored<K> | null;
type HandTable<T extends keyof typeof HAND_TABLES> = { -readonly [C in keyof (typeof HAND_TABLES)[T]]: HandColumnType<C, (typeof HAND_TABLES)[T][C]> };

type Definitions = Exclude<(typeof DESCRIBED_BY_DEFINITIONS)[number], { table: keyof typeof HAND_TABLES }>;
export type DB = { [D in Definitions as D['table']]: DefinitionTable<D> & Extra<D['table']> } & { [T in keyof typeof HAND_TABLES]: HandTable<T> };
export type TypedDb = Kysely<DB>;

/** Table -> columns, from the same sources as `DB` (for the test against the real tables). */
export function dbColumns(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const extras: Record<string, Record<string, FieldKind>> = EXTRA_COLUMNS;
  for (const def of DESCRIBED_BY_DEFINITIONS as readonly ResourceDef[]) {
    if (def.table in HAND_TABLES) continue;
    out.set(def.table, [...columnFields(def).map(columnOf), ...Object.keys(extras[def.table] ?? {})]);
  }
  for (const [table, cols] of Object.entries(HAND_TABLES)) out.set(table, Object.keys(cols));
  return out;
}
