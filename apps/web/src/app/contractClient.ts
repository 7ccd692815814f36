import { type ContractResult, type ContractShape, contractCodes, contractPath } from '@app/shared/contracts/contract';
import { type QueryKey, type UseMutationOptions, type UseQueryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { downloadBlob, type RequestOptions, request } from './request';

/**
 * The typed client of the hand-written endpoints (issue 21): every call names its contract from
 * packages/shared/src/contracts, so the URL, the method and the shapes of the input and the answer are the
 * server's own; a renamed field fails `tsc` here and there. Screens read a contract's permission codes with
 * `contractCodes` instead of copying them.
 */
type Part<K extends string, S> = S extends z.ZodType
  ? Record<string, never> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** The input of a call: params, query and body as the contract's schemas accept them (optional when all optional). */
export type CallInput<C extends ContractShape> = Part<'params', C['params']> & Part<'query', C['query']> & Part<'body', C['body']>;

/** Request options a call may add (timeout, silent, headers). */
export type CallOptions = Pick<RequestOptions, 'timeout' | 'silent' | 'headers'>;

/** One call of a contract; resolves with its answer, rejects with RequestError as every request does. */
export function callContract<C extends ContractShape>(contract: C, input: CallInput<C>, options: CallOptions = {}): Promise<ContractResult<C>> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return request<ContractResult<C>>({
    url: contractPath(contract, params),
    method: contract.method,
    params: query,
    data: body,
    ...(contract.response ? {} : { responseType: 'blob' as const }),
    ...options,
  });
}

/** A contract's method and path alone, as contracts/sessionRoutes.ts states them for the page's boot code. */
export type ContractRoute<C extends ContractShape> = Pick<C, 'method' | 'path'>;

/**
 * One call of a contract named by its route alone (contracts/sessionRoutes.ts) and typed by the contract itself
 * (`callRoute<typeof login>(SESSION_ROUTES.login, ...)` with `import type`): for the login page and the page start,
 * which must not load zod with the contract's schemas. JSON answers only.
 */
export function callRoute<C extends ContractShape>(route: ContractRoute<C>, input: CallInput<C>, options: CallOptions = {}): Promise<ContractResult<C>> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return request<ContractResult<C>>({ url: contractPath(route, params), method: route.method, params: query, data: body, ...options });
}

/** A file answer (an export), saved under `fileName` or else the server's file name. */
export function downloadContract<C extends ContractShape>(contract: C, input: CallInput<C>, fileName?: string): Promise<void> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return downloadBlob(contractPath(contract, params), { method: contract.method, params: query, data: body, fileName });
}

/** A multipart upload to a contract whose body is a form (no body schema: the server reads the file stream). */
export function uploadContract<C extends ContractShape>(contract: C, form: FormData, input: CallInput<C> = {} as CallInput<C>, options: CallOptions = {}): Promise<ContractResult<C>> {
  const { params, query } = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return request<ContractResult<C>>({ url: contractPath(contract, params), method: contract.method, params: query, data: form, ...options });
}

/** The query key of a contract's read: its method and path, then the input (so invalidating by contract works). */
export function contractKey<C extends ContractShape>(contract: C, input?: CallInput<C>): QueryKey {
  return input === undefined ? [contract.method, contract.path] : [contract.method, contract.path, input];
}

/** A read through TanStack Query, keyed by contract and input. */
export function useContractQuery<C extends ContractShape>(
  contract: C,
  input: CallInput<C>,
  options: Omit<UseQueryOptions<ContractResult<C>>, 'queryKey' | 'queryFn'> & { call?: CallOptions } = {},
) {
  const { call, ...queryOptions } = options;
  return useQuery<ContractResult<C>>({ queryKey: contractKey(contract, input), queryFn: () => callContract(contract, input, call), ...queryOptions });
}

/** A write through TanStack Query; `mutate(input)` takes the contract's input. */
export function useContractMutation<C extends ContractShape>(
  contract: C,
  options: Omit<UseMutationOptions<ContractResult<C>, Error, CallInput<C>>, 'mutationFn'> & { call?: CallOptions } = {},
) {
  const { call, ...mutationOptions } = options;
  return useMutation<ContractResult<C>, Error, CallInput<C>>({ mutationFn: (input) => callContract(contract, input, call), ...mutationOptions });
}

export { contractCodes };
export { SESSION_ROUTES } from '@app/shared/contracts/sessionRoutes';
