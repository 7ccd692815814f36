import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * 专项附加扣除标准 (findings PB1, PB2): the statutory limits of 专项附加扣除 and 其他扣除 as dated rows, seeded with the
 * rules since 2019 (a rule's amount applies from `valid_from` until its next row), and on 专项附加扣除 the facts the
 * limits depend on: children per category (empty = one), only child for 赡养老人 (existing rows: yes, the limit they
 * were entered under), city category of the rent (existing rows: 1, the highest) and a 职业资格 certificate this month.
 */

const GUOFA_2018_41 = '国发〔2018〕41号';
const GUOFA_2022_8 = '国发〔2022〕8号';
const GUOFA_2023_13 = '国发〔2023〕13号';

/** [rule, valid from, amount in yuan, basis] */
const SEED: [string, string, number, string][] = [
  ['childEducation', '2019-01', 1000, GUOFA_2018_41],
  ['childEducation', '2023-01', 2000, GUOFA_2023_13],
  ['infantCare', '2022-01', 1000, GUOFA_2022_8],
  ['infantCare', '2023-01', 2000, GUOFA_2023_13],
  ['elderlySupportOnlyChild', '2019-01', 2000, GUOFA_2018_41],
  ['elderlySupportOnlyChild', '2023-01', 3000, GUOFA_2023_13],
  ['elderlySupportShared', '2019-01', 1000, GUOFA_2018_41],
  ['elderlySupportShared', '2023-01', 1500, GUOFA_2023_13],
  ['housingLoanInterest', '2019-01', 1000, GUOFA_2018_41],
  ['housingRentTier1', '2019-01', 1500, `${GUOFA_2018_41}（直辖市、省会（首府）城市、计划单列市及国务院确定的其他城市）`],
  ['housingRentTier2', '2019-01', 1100, `${GUOFA_2018_41}（市辖区户籍人口超过100万的城市）`],
  ['housingRentTier3', '2019-01', 800, `${GUOFA_2018_41}（市辖区户籍人口不超过100万的城市）`],
  ['continuingEducationDegree', '2019-01', 400, `${GUOFA_2018_41}（学历（学位）继续教育，同一学历不超过48个月）`],
  ['continuingEducationCertificate', '2019-01', 3600, `${GUOFA_2018_41}（取得职业资格证书的当年）`],
  ['healthInsurance', '2017-07', 200, '财税〔2017〕39号（每年2,400元）'],
  ['privatePension', '2022-01', 12000, '财政部 税务总局公告2022年第34号'],
];

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_tax_deduction_cap', (t) =>
    t.id().string('rule', 50, { notNull: true }).month('valid_from', { notNull: true }).money('amount', { notNull: true }).string('basis', 255).timestamps().unique('rule', 'valid_from'),
  );
  const now = new Date().toISOString();
  await db
    .insertInto('accounts_tax_deduction_cap')
    .values(SEED.map(([rule, validFrom, yuan, basis]) => ({ rule, valid_from: validFrom, amount: yuan * 100, basis, create_time: now, update_time: now })))
    .execute();
  const alter = () => db.schema.alterTable('accounts_tax_deduction');
  await alter().addColumn('child_education_children', 'integer').execute();
  await alter().addColumn('infant_care_children', 'integer').execute();
  await alter().addColumn('elderly_only_child', 'smallint', (c) => c.defaultTo(1)).execute();
  await alter().addColumn('housing_rent_city_tier', 'varchar(50)', (c) => c.defaultTo('1')).execute();
  await alter().addColumn('certificate_this_month', 'smallint', (c) => c.defaultTo(0)).execute();
}
