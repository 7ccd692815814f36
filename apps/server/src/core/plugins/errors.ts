import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@app/shared/errors/catalogue';
import { AppError } from '../errors.ts';
import { type LocalizedError, localizeAppError, renderFor, requestLanguage } from '../errorLanguage.ts';
import { nowIso } from '../db.ts';
import { stripServerPaths } from '../serverPaths.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the error handler made of a failed request, kept for the operation log (audit plugin). */
    failure: { message: string; detail: string } | null;
  }
}

/** Answers a request no route serves. */
export type NotFoundHandler = (req: FastifyRequest, reply: FastifyReply) => unknown;

export interface ErrorsPluginOptions {
  /** What a path no route serves gets; the API's 404 by default (the web app's index.html fallback otherwise). */
  notFound?: NotFoundHandler;
}

/** The API's answer to a path nothing serves, in the request's language. */
export function apiNotFound(reply: FastifyReply) {
  const language = requestLanguage(reply.request.headers['accept-language']);
  return reply.status(404).send({ status: 404, message: renderFor('API_NOT_FOUND', language), timestamp: new Date().toISOString(), code: 'API_NOT_FOUND' });
}

/**
 * The `errors` plugin: every error becomes `{status, message, timestamp, code}` in the request's language
 * (core/errorLanguage.ts) and never leaks a stack trace; unserved paths get the not-found answer. Registered
 * before any route: Fastify hands a route the error handler in force when the route is added.
 */
async function errorsPlugin(app: FastifyInstance, opts: ErrorsPluginOptions): Promise<void> {
  app.decorateRequest('failure', null);
  app.setErrorHandler((err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(req.headers['accept-language']);
    let status: number;
    let answer: LocalizedError;
    if (err instanceof AppError) {
      status = err.status;
      answer = localizeAppError(err, language);
    } else {
      let code: ErrorCode;
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err instanceof SyntaxError && (err as FastifyError).statusCode === 400)) {
        [status, code] = [400, 'INVALID_JSON'];
      } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
        [status, code] = [413, 'BODY_TOO_LARGE'];
      } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        [status, code] = [415, 'UNSUPPORTED_MEDIA_TYPE'];
      } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        status = err.statusCode;
        code = status === 429 ? 'TOO_MANY_REQUESTS' : 'INVALID_REQUEST';
      } else {
        [status, code] = [500, 'INTERNAL_ERROR'];
        req.log.error({ err }, 'unhandled error');
      }
      answer = { code, message: renderFor(code, language) };
    }
    // The log keeps the Chinese text (one language for whoever reads it), a stack only for server faults, with
    // the server's absolute paths made relative (the error-log screen is not the host's file listing). What the
    // user can put right (any 4xx, AppError or not) keeps one line and is never logged at error level.
    const logged = err instanceof AppError ? err.message : answer.message;
    const dataDir = (app as { ctx?: { config?: { dataDir?: string } } }).ctx?.config?.dataDir;
    req.failure = { message: logged, detail: stripServerPaths(status >= 500 ? String(err.stack ?? err) : `${status} ${err.message}`, dataDir) };
    const body: Record<string, unknown> = { status, message: answer.message, timestamp: nowIso(), code: answer.code };
    if (answer.fieldErrors) {
      body.fieldErrors = answer.fieldErrors;
      body.fieldErrorCodes = answer.fieldErrorCodes;
    }
    if (language !== 'zh') reply.header('content-language', language);
    reply.status(status).send(body);
  });
  const notFound = opts.notFound ?? ((_req: FastifyRequest, reply: FastifyReply) => apiNotFound(reply));
  app.setNotFoundHandler((req, reply) => notFound(req, reply));
}

export default fp(errorsPlugin, { name: 'errors', fastify: '5.x' });
