import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of the payroll flow (month batches, year-to-date tax ledger, 反确认 audit, tax deductions, payslip
 * delivery) that no definition describes: table -> column -> stored kind, in the notation of HandTableSet
 * (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-types.test.ts checks them against the migrated tables.
 */
export const PAYROLL_TABLES = {
  accounts_salary_batch: { id: 'int', company_id: 'ref', month: 'month', version: 'int', create_time: 'datetime', update_time: 'datetime' },
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
  // payslip delivery and the employees' confirmations (migration 0030, modules/payroll/payslipDelivery.ts)
  accounts_payslip_publication: { id: 'int', company_id: 'int!', company_name: 'string', month: 'month!', version: 'int!', state: 'string!', publish_at: 'datetime', published_time: 'datetime', recalled_time: 'datetime', confirm_days: 'int!', published_by: 'string', site_url: 'string', notified_time: 'datetime', notice_summary: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_payslip_receipt: {
    id: 'int', publication_id: 'int!', company_id: 'int!', month: 'month!', version: 'int!', id_card: 'string!', staff_name: 'string', slip: 'text', slip_hash: 'string!', state: 'string!', deadline: 'datetime',
    viewed_time: 'datetime', viewed_ip: 'string', confirmed_time: 'datetime', confirmed_ip: 'string', confirmed_ua: 'string', confirmed_hash: 'string', objection: 'text', objection_time: 'datetime', objection_ip: 'string',
    reply: 'text', reply_time: 'datetime', reply_by: 'string', create_time: 'datetime', update_time: 'datetime',
  },
} as const satisfies HandTableSet;
