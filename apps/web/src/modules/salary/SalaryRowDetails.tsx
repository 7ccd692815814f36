import { SALARY_INSURANCE_FIELDS, type SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DictMap } from '../../app/dict';
import { labelOf, renderValue, type Row } from '../../crud';
import { type ReportItem, RowOpenItems } from './CalculationReport';

const fieldsByName = new Map(salaryResource.fields.map((f) => [f.name, f]));

/** The expanded row: the snapshot, the bases and ratios, the personal items and the tax figures. */
const DETAIL_GROUPS: { key: string; fields: SalaryFieldName[] }[] = [
  { key: 'details.staff', fields: ['dispatchCompany', 'censusType', 'sex', 'taxesType', 'insureType', 'contractStart', 'contractEnd', 'fullSalary', 'paidDays', 'prorationRule', 'adjustEdited', 'ratioOverride'] },
  { key: 'details.bases', fields: [...SALARY_INSURANCE_FIELDS] },
  { key: 'details.personal', fields: ['yanglao', 'yiliao', 'shiye', 'gongjijin', 'siBackSelf', 'fiveOne', 'jiaban', 'koukuan', 'gross'] },
  {
    key: 'details.employer',
    // 补缴社保个人/单位: 补差 of earlier confirmed months placed into this month (社保调基, 社保平账)
    fields: ['employerYanglao', 'employerYiliao', 'employerShiye', 'employerGongshang', 'employerShengyu', 'employerGongjijin', 'siBackCompany', 'employerTotal', 'labourCost'],
  },
  {
    key: 'details.tax',
    fields: ['deduct', 'otherDeduct', 'simplifiedDeduction', 'monthIndex', 'cumulativeIncome', 'cumulativeTaxable', 'cumulativeTax', 'taxableThisMonth', 'tax', 'bonus', 'bonusMerged', 'bonusTax', 'backPay', 'backPayMonth', 'backDeduct', 'backDeductMonth', 'severance', 'severanceExempt', 'severanceTax', 'carriedIn', 'unpaid', 'advanced', 'realSalary', 'calculateTime'],
  },
];

/** A salary row expanded: its open items, then the snapshot, bases, personal, employer and tax figures by group. */
export function SalaryRowDetails({ row, items, dicts }: { row: Row; items: readonly ReportItem[]; dicts: DictMap }) {
  const { t } = useTranslation('salary');
  return (
    <div className="salary-details" data-testid="salary-details">
      <RowOpenItems items={items} />
      {DETAIL_GROUPS.map((g) => (
        <Descriptions key={g.key} size="small" bordered column={{ xs: 1, sm: 2, lg: 4 }} title={t(g.key)} className="crud-detail">
          {g.fields
            .map((n) => fieldsByName.get(n))
            .filter((f): f is NonNullable<typeof f> => !!f)
            .map((f) => (
              <Descriptions.Item key={f.name} label={labelOf(salaryResource.name, f)}>
                {renderValue(f, row[f.name], row, dicts)}
              </Descriptions.Item>
            ))}
        </Descriptions>
      ))}
    </div>
  );
}
