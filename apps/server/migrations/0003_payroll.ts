import { createTable, type TableSpec } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Payroll: monthly salary rows, the per-(company, month) batch row that serialises the flow, the
 * confirmation log and payslips. Money columns are integer fen, ratios numeric(12,6), months 'YYYY-MM'.
 */

const SALARY_MONEY = ['salary', 'deduct', 'gjj_base', 'yanglao_base', 'yiliao_base', 'yiliao_base_self', 'shiye_base', 'gongshang_base', 'shengyu_base'];
const SALARY_RATIOS = [
  'gjj_ratio',
  'yanglao_ratio_company',
  'yanglao_ratio_self',
  'yiliao_ratio_company',
  'yiliao_ratio_self',
  'shiye_ratio_company',
  'shiye_ratio_self',
  'gongshang_ratio_company',
  'shengyu_ratio_company',
];
const SALARY_FIGURES = [
  'jiaban',
  'koukuan',
  'gross',
  'yanglao',
  'yiliao',
  'shiye',
  'gongjijin',
  'five_one',
  'tax',
  'real_salary',
  'cumulative_income',
  'cumulative_taxable',
  'cumulative_tax',
  'taxable_this_month',
];

const PAYSLIP_MONEY = [
  'banzhuren',
  'bishisheng',
  'bufaxuesheng',
  'chuangshou',
  'fudaoyuan',
  'gangweixing',
  'hengxiang',
  'jichu',
  'jiaoxue',
  'juanzeng',
  'kecheng',
  'keshi',
  'kunnan',
  'laowu',
  'lunwen',
  'shenghuo',
  'shuoshi',
  'teqin',
  'teshugangwei',
  'teshujixiao',
  'shichu',
  'tuchu',
  'xifa',
  'xiaofa',
  'xiaoling',
  'xieyi',
  'xueshi',
  'yidi',
  'zhaosheng',
  'zhuanjia',
  'zhuanxiang1',
  'zhuanxiang2',
  'zongxiang',
  'zuopin',
  'zizhu',
  'xiaonei',
  'youxiujiang',
  'bumenkaohe',
  'nianzhong1',
  'nianzhong2',
  'benqi',
  'yanglao',
  'yiliao',
  'shiye',
  'gongjijin',
  'shebaogeren',
  'shebaogongjijin',
  'yingshui',
  'yingna',
  'nianzhong3',
  'gonghui',
  'shuihou',
  'shifa',
  'nianzhong4',
];

const each = (t: TableSpec, names: string[], add: (t: TableSpec, n: string) => TableSpec) => {
  for (const n of names) add(t, n);
  return t;
};

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_salary', (t) => {
    t.id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      // The withholding entity (派遣单位) at generation time: the tax ledger is kept per entity and ID card.
      .string('dispatch_company', 100)
      .month('month', { notNull: true })
      .string('staff_name', 50)
      .string('census_type', 50)
      .string('id_card', 18, { notNull: true })
      .string('sex', 10)
      .string('phone', 20)
      .string('taxes_type', 50)
      .string('insure_type', 50)
      .date('contract_date')
      .date('contract_start')
      .date('contract_end');
    each(t, SALARY_MONEY, (s, n) => s.money(n));
    each(t, SALARY_RATIOS, (s, n) => s.ratio(n));
    each(t, SALARY_FIGURES, (s, n) => s.money(n));
    t.int('month_index')
      .int('tag', { notNull: true, default: 0 })
      // 1 = figures are those of the last calculation; 0 = generated, created or changed since.
      .bool('calc_state', { notNull: true, default: false })
      .datetime('calculate_time')
      .timestamps()
      .index('company_id', 'month')
      .index('id_card', 'month');
  });
  await createTable(db, dialect, 'accounts_salary_batch', (t) =>
    t.id().int('company_id', { notNull: true }).month('month', { notNull: true }).int('version', { notNull: true, default: 0 }).timestamps().unique('company_id', 'month'),
  );
  await createTable(db, dialect, 'accounts_confirm_log', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .month('month', { notNull: true })
      .int('row_count')
      .string('username', 50)
      .string('cname', 50)
      .datetime('create_time')
      .unique('company_id', 'month'),
  );
  await createTable(db, dialect, 'ac_payslip', (t) => {
    t.id()
      .month('month', { notNull: true })
      .int('xuhao')
      .string('xiaofang', 255)
      .string('gonghao', 50)
      .string('name', 50)
      .string('id_card', 18, { notNull: true })
      .string('bank', 255)
      .string('bank_number', 50)
      .string('beizhu', 500)
      .string('mingcheng', 255);
    each(t, PAYSLIP_MONEY, (s, n) => s.money(n));
    t.int('company_id').string('source', 10).timestamps().index('id_card', 'month').index('month').index('company_id', 'month');
  });
}
