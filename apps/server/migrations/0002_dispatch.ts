import type { MigrationContext } from './index.ts';
import { createTable, type TableSpec } from '../src/core/tableBuilder.ts';

/** Insurance bases (integer fen) and ratios of a staff row, in the definition's order. */
function staffInsurance(t: TableSpec): TableSpec {
  return t
    .money('gjj_base')
    .ratio('gjj_ratio')
    .money('yanglao_base')
    .ratio('yanglao_ratio_company')
    .ratio('yanglao_ratio_self')
    .money('yiliao_base')
    .money('yiliao_base_self')
    .ratio('yiliao_ratio_company')
    .ratio('yiliao_ratio_self')
    .money('shiye_base')
    .ratio('shiye_ratio_company')
    .ratio('shiye_ratio_self')
    .money('gongshang_base')
    .ratio('gongshang_ratio_company')
    .money('shengyu_base')
    .ratio('shengyu_ratio_company');
}

/** Dispatch business: client companies, staff (with contracts), staff extras and the HR records. */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_company', (t) =>
    t
      .id()
      .string('company_name', 100, { notNull: true, unique: true })
      .string('license', 50)
      .string('bamk', 100)
      .string('bank_card', 50)
      .string('bank_address', 200)
      .string('bank_number', 50)
      .string('service_type', 50)
      .string('settle_type', 50)
      .string('settle_date', 50)
      .string('send_invoice', 50)
      .string('receive_invoice', 50)
      .string('dispatch_invoice', 50)
      .string('receipt_type', 50)
      .string('contact', 50)
      .string('job', 50)
      .string('email', 100)
      .string('phone', 20)
      .money('disabled_pay')
      .string('fee_type', 50)
      .money('fee')
      .string('dispatch_company', 100)
      .money('gjj_base')
      .money('yanglao_base')
      .money('yilao_base')
      .money('yilao_base_self')
      .money('shiye_base')
      .money('gongshang_base')
      .money('shengyu_base')
      .ratio('gongshang_ratio_company')
      .int('dept_id', { index: true })
      .timestamps(),
  );

  await createTable(db, dialect, 'accounts_staff', (t) =>
    staffInsurance(
      t
        .id()
        .int('company_id', { notNull: true })
        .string('company_name', 100)
        .string('staff_name', 50, { notNull: true })
        .string('nation', 20)
        .string('census_type', 50)
        .string('id_card', 18, { notNull: true, index: true })
        .string('sex', 10)
        .date('born')
        .int('age')
        .string('marriage', 50)
        .string('education', 50)
        .string('phone', 20)
        .string('address', 200)
        .string('politics', 50)
        .string('passport', 30)
        .date('induction_date')
        .string('dept', 50)
        .string('job', 50)
        .string('job_state', 50)
        .date('leave_date')
        .string('leave_reason', 200)
        .money('salary')
        .string('salary_type', 50)
        .string('salary_bank', 50)
        .string('bankcard_number', 30)
        .string('taxes_type', 50)
        .string('insure_type', 50)
        .money('deduct')
        .date('dispatch_date')
        .string('insured_state', 50)
        .date('insured_time')
        .string('contract_state', 50)
        .string('contract_type', 50)
        .date('contract_date')
        .date('contract_start')
        .date('contract_end', { index: true })
        .string('contract_warn_state', 50)
        .date('contract_warn', { index: true }),
    )
      .timestamps()
      // also the index for "staff of a company"
      .unique('company_id', 'id_card'),
  );

  await createTable(db, dialect, 'accounts_staff_extra', (t) =>
    t
      .id()
      .string('staff_id_card', 20, { index: true })
      .string('staff_name', 50)
      .int('staff_company_id', { index: true })
      .string('staff_company', 100)
      .string('phone', 20)
      .month('month', { index: true })
      .money('jiaban')
      .money('koukuan')
      .timestamps(),
  );

  await createTable(db, dialect, 'acc_entry', (t) =>
    t
      .id()
      .string('company', 100)
      .string('dept', 50)
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .date('entry_date')
      .date('start_date')
      .date('end_date')
      .bool('is_regular')
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_depart', (t) =>
    t
      .id()
      .string('company', 100)
      .string('dept', 50)
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .string('reason', 500)
      .date('depart_date')
      .text('content')
      .string('exam', 50)
      .string('exam_status', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_intern', (t) =>
    t
      .id()
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .string('school', 100)
      .string('company', 100)
      .date('start_date')
      .date('end_date')
      .text('summarize')
      .date('remind_date')
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_gjj', (t) =>
    t
      .id()
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .money('base')
      .ratio('proportion')
      .string('status', 50)
      .date('to_date')
      .int('total_month')
      .money('money_year')
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_salary', (t) =>
    t
      .id()
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .month('month')
      .money('salary')
      .money('five_one')
      .money('deduct')
      .money('jiaban')
      .money('koukuan')
      .money('tax')
      .money('real_salary')
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_train', (t) =>
    t.id().string('name', 50).string('id_card', 20, { index: true }).string('project', 100).date('train_date').string('conclusion', 500).timestamps(),
  );
  await createTable(db, dialect, 'acc_social', (t) =>
    t
      .id()
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .money('social_base')
      .string('card_status', 50)
      .string('treatment', 200)
      .int('years')
      .timestamps(),
  );
  await createTable(db, dialect, 'acc_job', (t) =>
    t
      .id()
      .string('name', 50)
      .string('id_card', 20, { index: true })
      .string('old_job', 50)
      .date('leave_date')
      .string('new_job', 50)
      .date('entry_date')
      .string('item', 500)
      .timestamps(),
  );
}
