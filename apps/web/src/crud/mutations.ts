import type { ResourceDef } from '@app/shared/resource';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { NOTIFY_SECONDS, notify } from '../app/feedback';
import { RequestError } from '../app/request';
import { resourceListKey } from './resourceClient';

/**
 * Every write of the web app goes through `useApiMutation` (TanStack Query's useMutation): the call, then the
 * success notice, the refresh of every query showing the changed data, and the server's field errors on the
 * form. The request layer has already shown the server's message (spec §8), so a failure is not shown twice.
 * `useResourceMutation` is the same for a resource: its lists, its pickers and the screens built on it refresh.
 */

/**
 * Queries built on a resource besides its own lists and pickers: after a write to the resource they show stale
 * figures (the month summary after generate/calculate/confirm, the dictionaries after an entry changed...).
 */
const DEPENDENTS: Record<string, QueryKey[]> = {
  accountsSalary: [['accountsSalarySummary'], ['accountsConfirmLog'], resourceListKey('acPayslip'), ['home', 'unconfirmedSalaryMonths'], ['accountsSalaryReport']],
  // the salary month's open items (unused inputs) change with the inputs themselves
  taxDeduction: [['accountsSalaryReport']],
  taxOpening: [['accountsSalaryReport']],
  accountsStaffExtra: [['accountsSalaryReport']],
  acPayslip: [['accountsConfirmLog', 'months']],
  accountsCompany: [['accountsCompany']],
  accountsStaff: [['home', 'contractsDue']],
  dict: [['dicts']],
  dictDetail: [['dicts']],
  roles: [['roles']],
  // the role screen's assignment trees are the menu and permission trees; the sidebar is the menus
  // (app/menus.ts menusQuery): a renamed, re-ordered or hidden menu shows at once, not at the next login
  menus: [['roles', 'assignTree'], ['menus', 'build']],
  permissions: [['roles', 'assignTree']],
};

/** The query keys showing a resource's data: its lists (`useResourceList`), its pickers (`useRefOptions`), dependents. */
export function resourceQueryKeys(name: string): QueryKey[] {
  return [resourceListKey(name), ['ref', name], ...(DEPENDENTS[name] ?? [])];
}

/** Put the fields a server answer names in `fieldErrors` on the form (only fields the form has). */
export function applyFieldErrors(form: FormInstance, err: unknown): boolean {
  if (!(err instanceof RequestError) || !err.fieldErrors) return false;
  const registered = new Set(
    form
      .getFieldsError()
      .map((e) => e.name.join('.'))
      .filter(Boolean),
  );
  const fields = Object.entries(err.fieldErrors)
    .filter(([name]) => registered.has(name))
    .map(([name, message]) => ({ name: name.split('.'), errors: [String(message)] }));
  if (fields.length) form.setFields(fields as never);
  return fields.length > 0;
}

type Derived<T, TData, TVars> = T | ((data: TData, vars: TVars) => T);

function derive<T, TData, TVars>(value: Derived<T, TData, TVars> | undefined, data: TData, vars: TVars): T | undefined {
  return typeof value === 'function' ? (value as (data: TData, vars: TVars) => T)(data, vars) : value;
}

export interface ApiMutationOptions<TData, TVars> {
  /** The write itself, through the request helper (`api.post`, `api.put`, `api.del`...). */
  mutationFn: (vars: TVars) => Promise<TData>;
  /** Query keys (prefixes) refreshed after success; may depend on the answer (nothing imported: nothing to refresh). */
  invalidate?: Derived<readonly QueryKey[], TData, TVars>;
  /**
   * Refresh also after a failure: a server step (generate, calculate...) may have done part of its work before
   * refusing, and the screen shows what the database holds now.
   */
  invalidateOnError?: boolean;
  /** The success notice ('添加成功'...); nothing when empty. */
  success?: Derived<ReactNode, TData, TVars>;
  /** How long the notice stays, in seconds (default the spec's 2.5). */
  successSeconds?: number;
  /** The form whose fields the server's `fieldErrors` point at. */
  form?: FormInstance | null;
  onSuccess?: (data: TData, vars: TVars) => unknown;
  /** After the request layer showed the failure (and the field errors went onto the form). */
  onError?: (err: unknown, vars: TVars) => unknown;
}

/**
 * A write: `mutate(vars)` (or `mutateAsync`, which rejects after the failure was shown). On success: the
 * notice, then the refresh of `invalidate` (not awaited: a dialog closes at once, its list follows), then
 * `onSuccess`. Per-call callbacks of `mutate(vars, { onSuccess })` run after these.
 */
export function useApiMutation<TData = unknown, TVars = void>(opts: ApiMutationOptions<TData, TVars>) {
  const queryClient = useQueryClient();
  const refresh = (keys: readonly QueryKey[] | undefined) => {
    for (const queryKey of keys ?? []) void queryClient.invalidateQueries({ queryKey });
  };
  return useMutation<TData, unknown, TVars>({
    mutationFn: opts.mutationFn,
    onSuccess: (data, vars) => {
      const notice = derive(opts.success, data, vars);
      if (notice) notify.success(notice, undefined, opts.successSeconds ?? NOTIFY_SECONDS);
      refresh(derive(opts.invalidate, data, vars));
      return opts.onSuccess?.(data, vars);
    },
    onError: (err, vars) => {
      if (opts.form) applyFieldErrors(opts.form, err);
      if (opts.invalidateOnError) refresh(typeof opts.invalidate === 'function' ? undefined : opts.invalidate);
      if (opts.onError) return opts.onError(err, vars);
      // a RequestError was shown by the request layer; anything else is a bug worth a trace
      if (!(err instanceof RequestError)) console.warn(err);
      return undefined;
    },
  });
}

export interface ResourceMutationOptions<TData, TVars> extends Omit<ApiMutationOptions<TData, TVars>, 'invalidate'> {
  /** Further queries to refresh beside the resource's own (another list the screen shows...). */
  alsoInvalidate?: readonly QueryKey[];
  /** Whether the answer says something changed (an import of only refused rows did not): else nothing refreshes. */
  changed?: (data: TData, vars: TVars) => boolean;
}

/** A write to a resource: like useApiMutation, refreshing the resource's lists, pickers and dependents. */
export function useResourceMutation<TData = unknown, TVars = void>(resource: string | Pick<ResourceDef, 'name'>, opts: ResourceMutationOptions<TData, TVars>) {
  const name = typeof resource === 'string' ? resource : resource.name;
  const { alsoInvalidate, changed, ...rest } = opts;
  const keys = [...resourceQueryKeys(name), ...(alsoInvalidate ?? [])];
  return useApiMutation<TData, TVars>({
    ...rest,
    invalidate: changed ? (data, vars) => (changed(data, vars) ? keys : []) : keys,
  });
}
