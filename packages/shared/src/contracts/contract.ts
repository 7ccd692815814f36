import type { z } from 'zod';

/**
 * One contract per hand-written endpoint (issue 21): method, path, the permission codes it needs, the shapes of its
 * path parameters, query, body and answer, its OpenAPI summary and tags, and the operation-log label. The server
 * registers the route from the contract (apps/server/src/crud/registerContract.ts) and the web calls it through the
 * typed client built from the same object (apps/web/src/app/contractClient.ts), so a renamed field fails `tsc` on
 * both sides and the permission codes are stated once.
 */
export type ContractMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call: anyone, any signed-in user, or a user holding one of the codes (ADMIN passes every check). */
export type ContractAuth = 'public' | 'user' | readonly string[];

export interface ContractShape {
  method: ContractMethod;
  /** Fastify path, parameters as `:name` (`/api/notices/:id`). */
  path: string;
  auth: ContractAuth;
  /** OpenAPI summary (Chinese, as the other routes). */
  summary: string;
  tags: readonly string[];
  /** Operation-log label; writes are logged anyway (with the summary when absent), '' opts a route out. */
  log?: string;
  /** Reachable while the caller still has to change an issued password. */
  beforePasswordChange?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A create that answers 201 with the same shape as `response` (checked and documented alike). */
  created?: boolean;
  /** The JSON answer. Absent: the route answers with a file or a stream (downloads). */
  response?: z.ZodType;
}

/** Keeps the literal types of the contract (path, method, schemas) for both sides. */
export function defineContract<const C extends ContractShape>(contract: C): C {
  return contract;
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the web sends: the schemas' inputs (before coercion and defaults). */
export interface ContractRequest<C extends ContractShape> {
  params: InputOf<C['params']>;
  query: InputOf<C['query']>;
  body: InputOf<C['body']>;
}

/** What the server handler reads: the schemas' outputs (after coercion and defaults). */
export interface ContractParsed<C extends ContractShape> {
  params: OutputOf<C['params']>;
  query: OutputOf<C['query']>;
  body: OutputOf<C['body']>;
}

/** The answer as the handler returns it (schema input) and as the web receives it (schema output, i.e. JSON). */
export type ContractReply<C extends ContractShape> = C['response'] extends z.ZodType ? z.input<C['response']> : unknown;
export type ContractResult<C extends ContractShape> = C['response'] extends z.ZodType ? z.output<C['response']> : Blob;

/** The codes a screen checks before offering the action: the contract's own (none for 'user' and 'public'). */
export function contractCodes(contract: ContractShape): readonly string[] {
  return typeof contract.auth === 'string' ? [] : contract.auth;
}

/** The URL of a call: `:name` parameters filled in (encoded); a missing one is a programming error. */
export function contractPath(contract: Pick<ContractShape, 'method' | 'path'>, params?: Record<string, unknown>): string {
  return contract.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`${contract.method} ${contract.path}: parameter ${name} missing`);
    return encodeURIComponent(String(v));
  });
}
