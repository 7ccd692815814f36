import { companyResource } from '@app/shared/resources/company';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDicts } from '../../app/dict';
import { ResourcePage } from '../../crud';

const DISPATCH_DICT = ['dispatch_company'];

/**
 * 单位管理 (accounts/company/index): the generic page of the company resource (filters, sections, expandable
 * details, import/export/template); the dispatch company is chosen among the dispatch_company dictionary's
 * labels (the label is what the record stores).
 */
export default function CompanyPage() {
  const { t } = useTranslation('accounts');
  const dicts = useDicts(DISPATCH_DICT);
  const options = useMemo(() => (dicts.dispatch_company ?? []).map((e) => ({ value: e.label, label: e.label })), [dicts]);
  return (
    <ResourcePage
      resource={companyResource}
      formOverrides={{
        dispatchCompany: {
          control: <Select options={options} showSearch allowClear placeholder={t('chooseDispatchCompany')} data-testid="company-dispatch-select" />,
        },
      }}
    />
  );
}
