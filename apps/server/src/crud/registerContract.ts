import type { ContractParsed, ContractReply, ContractShape } from '@app/shared/contracts/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { RouteAuth } from '../core/context.ts';

/**
 * Registers a hand-written route from its shared contract (packages/shared/src/contracts): the auth rule, the
 * operation-log label, the OpenAPI entry and the validation of params, query and body all come from the one object
 * the web client also calls through. The handler reads the parsed input and must return the contract's answer
 * (checked by TypeScript here and by the response schema at run time, so nothing outside the schema is sent).
 */
export type ContractRequestOf<C extends ContractShape> = FastifyRequest<{
  Params: ContractParsed<C>['params'];
  Querystring: ContractParsed<C>['query'];
  Body: ContractParsed<C>['body'];
}>;

export type ContractHandler<C extends ContractShape> = (
  req: ContractRequestOf<C>,
  reply: FastifyReply,
) => Promise<C['response'] extends undefined ? unknown : ContractReply<C> | FastifyReply> | (C['response'] extends undefined ? unknown : ContractReply<C>);

/** Route options a contract does not state (hooks, limits); the rest comes from the contract. */
export type ContractRouteExtras = Pick<RouteOptions, 'bodyLimit' | 'preHandler' | 'onRequest' | 'preValidation'> & { config?: Record<string, unknown> };

/**
 * Where each route's contract comes from, per app (keyed by the app's context object, which every encapsulated
 * plugin instance shares): a shared contract (`routeContract`) or a resource definition (`registerResource` and its
 * Excel routes). The route walk of the tests finds every route that has neither.
 */
export type RouteOrigin = 'contract' | 'definition';
const routeOrigins = new WeakMap<object, Map<string, RouteOrigin>>();

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Records that `method path` was registered from a contract or a definition. */
export function noteRouteOrigin(app: FastifyInstance, method: string, path: string, origin: RouteOrigin): void {
  let origins = routeOrigins.get(app.ctx);
  if (!origins) routeOrigins.set(app.ctx, (origins = new Map()));
  origins.set(routeKey(method, path), origin);
}

/** The origin of `method path` on this app; undefined for a route stated by hand. */
export function routeOrigin(app: FastifyInstance, method: string, path: string): RouteOrigin | undefined {
  return routeOrigins.get(app.ctx)?.get(routeKey(method, path));
}

export function routeContract<C extends ContractShape>(app: FastifyInstance, contract: C, handler: ContractHandler<C>, extras: ContractRouteExtras = {}): void {
  noteRouteOrigin(app, contract.method, contract.path, 'contract');
  const { config, ...hooks } = extras;
  app.route({
    method: contract.method,
    url: contract.path,
    config: {
      ...config,
      // a fresh array: the guard may keep it, the contract stays frozen in the shared package
      auth: (typeof contract.auth === 'string' ? contract.auth : [...contract.auth]) as RouteAuth,
      ...(contract.log !== undefined ? { log: contract.log } : {}),
      ...(contract.beforePasswordChange ? { beforePasswordChange: true } : {}),
    },
    schema: {
      tags: [...contract.tags],
      summary: contract.summary,
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.body ? { body: contract.body } : {}),
      ...(contract.response ? { response: { 200: contract.response, ...(contract.created ? { 201: contract.response } : {}) } } : {}),
    },
    ...hooks,
    // typed by the contract's parsed input (ContractRequestOf), which app.route's generic RouteGenericInterface cannot carry
    handler: handler as never,
  });
}
