import { permissionCodes } from '@app/shared/resource';
import { companyResource } from '@app/shared/resources/company';
import { settlementTermsResource } from '@app/shared/resources/settlementTerms';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { ResourcePage } from '../../crud';
import { CompanyTermsSection } from './CompanyTermsSection';

const DISPATCH_DICT = ['dispatch_company'];

/**
 * 单位管理 (accounts/company/index): the generic page of the company resource (filters, sections, expandable
 * details, import/export/template); the dispatch company is chosen among the dispatch_company dictionary's
 * labels (the label is what the record stores). Below the company's fields its 结算条款 and their history
 * (CompanyTermsSection); a company just added stays open, in edit mode, for them.
 */
export default function CompanyPage() {
  const { t } = useTranslation('accounts');
  const dicts = useDicts(DISPATCH_DICT);
  const { hasPermission } = useAuth();
  // a new company stays open after 保存 so that its 结算条款 can follow at once
  const canSeeTerms = hasPermission(permissionCodes(settlementTermsResource, 'create'));
  const options = useMemo(() => (dicts.dispatch_company ?? []).map((e) => ({ value: e.label, label: e.label })), [dicts]);
  return (
    <ResourcePage
      resource={companyResource}
      editAfterCreate={canSeeTerms}
      dialogAfter={({ record }) => <CompanyTermsSection companyId={record?.id === undefined ? undefined : Number(record.id)} />}
      formOverrides={{
        dispatchCompany: {
          control: <Select options={options} showSearch allowClear placeholder={t('chooseDispatchCompany')} data-testid="company-dispatch-select" />,
        },
      }}
    />
  );
}
