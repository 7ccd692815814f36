import { allCompanies } from '@app/shared/contracts/staffAccounts';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/feedback';
import { callContract } from '../../app/contractClient';
import type { Row } from '../../crud';

/**
 * The companies the caller may see (contracts/staffAccounts.ts allCompanies), the company select of the dispatch
 * screens and the "company required" state (first company preselected; clearing warns '请选择一个单位').
 */

export function useCompanies() {
  const q = useQuery({
    queryKey: ['accountsCompany', 'all'],
    queryFn: () => callContract(allCompanies, {}),
    staleTime: 30_000,
  });
  // a bare array is read too (the screen tests' fake servers answer one)
  const data: unknown = q.data;
  const rows: Row[] = Array.isArray(data) ? (data as Row[]) : (q.data?.content ?? []);
  return { companies: rows, loading: q.isLoading, loaded: q.isSuccess };
}

export interface CompanySelectProps {
  value?: number | null;
  onChange?: (v: number | null) => void;
  companies: Row[];
  loading?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  style?: React.CSSProperties;
  id?: string;
  disabled?: boolean;
  testId?: string;
}

/** Searchable company select (by name). */
export function CompanySelect({ value, onChange, companies, loading, allowClear = true, placeholder, style, id, disabled, testId }: CompanySelectProps) {
  const { t } = useTranslation('accounts');
  return (
    <Select
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={companies.map((c) => ({ value: Number(c.id), label: String(c.companyName ?? c.id) }))}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={allowClear}
      loading={loading}
      disabled={disabled}
      placeholder={placeholder ?? t('chooseCompany')}
      style={{ width: 220, ...style }}
      data-testid={testId}
      aria-label={t('company')}
    />
  );
}

/**
 * The chosen company of a screen: the first company once the list arrives, null after the user clears it
 * (then '请选择一个单位' is shown as a warning for 2.5 s).
 */
export function useChosenCompany(companies: Row[], loaded: boolean, preferred: number | null = null) {
  const { t } = useTranslation('accounts');
  const [companyId, setCompanyId] = useState<number | null>(null);
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || !loaded) return;
    preselected.current = true;
    // a link may name the company (首页 › 本月工资): taken when the caller sees it, else the first one
    const named = preferred !== null ? companies.find((c) => Number(c.id) === preferred) : undefined;
    if (named) setCompanyId(preferred);
    else if (companies.length) setCompanyId(Number(companies[0].id));
  }, [companies, loaded, preferred]);
  const choose = (v: number | null) => {
    preselected.current = true;
    setCompanyId(v);
    if (v === null) notify.warning(t('chooseCompanyFirst'));
  };
  return { companyId, setCompanyId: choose };
}
