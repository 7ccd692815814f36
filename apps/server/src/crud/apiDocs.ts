import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAuth } from '../core/context.ts';
import { API_DOCS_CODES, API_DOCS_UI_PATH, apiDocument } from '@app/shared/contracts/apiDocs';
import { withOrderedTags } from './apiDocsTags.ts';

/**
 * The API documentation (spec §2 "API-docs frame"): an OpenAPI 3 document built by @fastify/swagger from the
 * routes' own zod schemas, each operation naming the permission codes that open it; served as JSON at
 * `/v3/api-docs` and through a local Swagger UI (no CDN) under `/api-docs/ui/`, which the web app's 接口文档
 * screen shows in a frame of our own origin. Readable by ADMIN or API_DOCS_*; off with API_DOCS_ENABLED=false.
 */

const API_DOCS_UI = API_DOCS_UI_PATH;

/**
 * Rules for the Swagger UI's own routes, which come from the plugin without `config.auth`: the page and its
 * static files (the generic Swagger UI bundle, no data) are public; the document itself needs the codes.
 * Must be added before the route guards (installHttpPlumbing) so that their onRoute hook sees the rule.
 */
export function apiDocsRouteRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.url !== API_DOCS_UI && !route.url.startsWith(`${API_DOCS_UI}/`)) return;
    const data = /\/(json|yaml)$/.test(route.url);
    route.config = { ...(route.config as object), auth: data ? [...API_DOCS_CODES] : 'public', log: '' };
  });
}

/** Who may call a route, as the document says it. */
export function describeAuth(auth: RouteAuth | undefined): string {
  if (auth === 'public') return '权限：公开（无需登录）';
  if (auth === 'user' || auth === undefined) return '权限：任何已登录用户';
  return `权限：ADMIN 或 ${auth.join('、')}`;
}

/** Swagger (collects every route registered after it) and the documentation routes. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '劳务派遣薪资管理系统 API',
        version: '1.0.0',
        description: '错误应答：{status, message, timestamp, code, fieldErrors}（400 参数错误、401 未登录、403 无权限、404 不存在、409 冲突）。',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: (doc) => {
      const out = jsonSchemaTransform(doc) as { schema: Record<string, unknown> | undefined; url: string };
      const auth = (doc.route.config as { auth?: RouteAuth } | undefined)?.auth;
      const schema = { ...(out.schema ?? {}) };
      if (!schema.hide) {
        schema.description = [schema.description, describeAuth(auth)].filter(Boolean).join('\n\n');
        if (auth === 'public') schema.security = [];
        // routes without tags are grouped by their first path segments
        if (!schema.tags) schema.tags = [doc.url.split('/').slice(1, 3).join('/') || '/'];
      }
      return { schema, url: out.url };
    },
    // schemas with an id (the recursive trees of contracts/systemTrees.ts) become components the routes refer to
    transformObject: jsonSchemaTransformObject,
  });

  // built once, on the first read: every route is registered by then
  let ordered: Exclude<ReturnType<typeof app.swagger>, string> | undefined;
  const documentInMenuOrder = () => {
    ordered ??= withOrderedTags(app.swagger());
    return ordered;
  };
  // from the contract's path and codes, but not through routeContract: the document leaves itself out (hide), and its
  // answer is the library's own document
  app.get(apiDocument.path, { config: { auth: [...apiDocument.auth], log: apiDocument.log }, schema: { hide: true } }, async () => documentInMenuOrder());

  await app.register(swaggerUi, {
    routePrefix: API_DOCS_UI,
    transformSpecification: () => documentInMenuOrder(),
    // U25: no Fastify-branded top bar (its "Explore" box loads any other URL); the app's own screen names the page
    theme: { title: '接口文档', css: [{ filename: 'app.css', content: '.swagger-ui .topbar { display: none; }' }] },
    uiHooks: {
      // The plugin answers `/static/index.html` with a redirect to its own URL minus that ending: with a query
      // string, or a trailing slash (the router ignores trailing slashes), nothing is cut and it redirects to
      // itself for ever (E5). The page is always at `<prefix>/`; the query string goes along.
      onRequest: async (req, reply) => {
        if (req.routeOptions.url !== `${API_DOCS_UI}/static/index.html`) return;
        const query = req.url.indexOf('?');
        return reply.redirect(`${API_DOCS_UI}/${query < 0 ? '' : req.url.slice(query)}`);
      },
    },
    uiConfig: {
      docExpansion: 'none',
      deepLinking: true,
      // The page runs in a frame of the web app (same origin): calls carry the app's session (its cookie goes
      // along by itself; the app's window gives the CSRF header, or a bearer header in API mode).
      requestInterceptor: ((req: { headers: Record<string, string> }) => {
        try {
          const w = window as unknown as { parent?: { __apiDocsHeaders?: () => Record<string, string> } };
          Object.assign(req.headers, w.parent?.__apiDocsHeaders?.() ?? {});
        } catch {
          // not framed by the app: the document request answers 401
        }
        return req;
        // typed as the DOM's fetch Request, but swagger-ui hands over its own plain object with a headers record
      }) as never,
    },
  });
}
