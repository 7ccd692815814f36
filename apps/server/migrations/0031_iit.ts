import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * IIT declaration (issue 23 items 5-6; reference month-close.md §B2), per withholding agent (派遣单位) and month.
 *
 * `accounts_iit_reconcile`: one import of ITS's calculated 正常工资薪金 export. The latest import of an agent and
 * month is the one that counts; older ones stay as history. `accounts_iit_diff`: a person whose 累计应补(退)税额
 * differs from ours (kind differs) or who is on one side only (ours / its), with the clerk's acknowledgement
 * (reason, who, when). Until every difference of the latest import is acknowledged, a payout batch of that agent
 * and month is exported only with an explicit override, which `accounts_iit_override` records.
 *
 * `accounts_iit_person`: the ITS person list last imported for an agent and month (增减员): the ID card, the name,
 * the 离职日期 ITS knows and its 人员状态; replaced by the next import.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_iit_reconcile', (t) =>
    t
      .id()
      .string('dispatch_company', 100, { notNull: true })
      .month('month', { notNull: true })
      .string('file_name', 200)
      .int('ours_count', { notNull: true })
      .int('its_count', { notNull: true })
      .int('diff_count', { notNull: true })
      .string('create_by', 100)
      .timestamps()
      .index('dispatch_company', 'month'),
  );
  await createTable(db, dialect, 'accounts_iit_diff', (t) =>
    t
      .id()
      .int('reconcile_id', { notNull: true })
      // differs | ours | its
      .string('kind', 10, { notNull: true })
      .string('id_card', 30, { notNull: true })
      .string('staff_name', 50)
      .money('ours')
      .money('its')
      .string('ack_reason', 200)
      .string('ack_by', 100)
      .datetime('ack_time')
      .timestamps()
      .index('reconcile_id'),
  );
  await createTable(db, dialect, 'accounts_iit_override', (t) =>
    t
      .id()
      .int('batch_id', { notNull: true })
      .string('dispatch_company', 100, { notNull: true })
      .month('month', { notNull: true })
      .int('reconcile_id', { notNull: true })
      .int('open_count', { notNull: true })
      .string('reason', 200)
      .string('username', 100)
      .timestamps()
      .index('batch_id'),
  );
  await createTable(db, dialect, 'accounts_iit_person', (t) =>
    t
      .id()
      .string('dispatch_company', 100, { notNull: true })
      .month('month', { notNull: true })
      .string('id_card', 30, { notNull: true })
      .string('staff_name', 50)
      .date('leave_date')
      .string('status', 20)
      .timestamps()
      .index('dispatch_company', 'month'),
  );
}
