import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fastifyMultipart, type FastifyMultipartOptions } from '@fastify/multipart';

/** The plugin's request methods that save an upload to temporary files, which its per-request hooks clean up. */
const SAVING_TO_TEMPORARY_FILES = new Set(['saveRequestFiles']);

/** What a handler that tries to save an upload to temporary files is told (a programming error, so English). */
function streamedOnly(): never {
  throw new Error('uploads are streamed (req.parts() / req.file()); saving them to temporary files is not supported here');
}

/**
 * Uploads (`req.parts()`, `req.file()`, `req.isMultipart()`): @fastify/multipart without its two per-request hooks.
 * Those hooks (an async onRequest that puts a `close` listener on every answer, an async onResponse) exist only to
 * delete the temporary files `req.saveRequestFiles()` writes. This server streams every upload (crud/excel.ts reads
 * `req.parts()`) and never saves one, so the hooks had nothing to do, yet they ran on every request of every route:
 * two hook runners, two promises and a listener per /auth/info or list request (issue 27). Here they are not
 * registered, and `saveRequestFiles` refuses instead of writing files nothing would delete. Everything else the
 * plugin adds (content-type parser, request decorators, error classes) goes to the app as it is.
 */
export const uploadsPlugin = fp(
  (app: FastifyInstance, opts: FastifyMultipartOptions, done: (err?: Error) => void) => {
    // Fastify's overloads pair each literal hook or decorator name with its value's type; the plugin's calls are
    // passed through by name, so they are called here through these plain signatures.
    const addHook = app.addHook.bind(app) as (name: string, hook: unknown) => unknown;
    const decorateRequest = app.decorateRequest.bind(app) as (name: string | symbol, value: unknown, dependencies?: string[]) => unknown;
    const withoutTemporaryFiles = new Proxy(app, {
      get(target, key) {
        if (key === 'addHook') {
          return (name: string, hook: unknown) => {
            // onRequest and onResponse serve the temporary files only; anything else would be new and is kept
            if (name !== 'onRequest' && name !== 'onResponse') addHook(name, hook);
            return withoutTemporaryFiles;
          };
        }
        if (key === 'decorateRequest') {
          return (name: string | symbol, value: unknown, dependencies?: string[]) => {
            decorateRequest(name, typeof name === 'string' && SAVING_TO_TEMPORARY_FILES.has(name) ? streamedOnly : value, dependencies);
            return withoutTemporaryFiles;
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    (fastifyMultipart as unknown as (instance: FastifyInstance, o: FastifyMultipartOptions, cb: (err?: Error) => void) => void)(withoutTemporaryFiles, opts, done);
  },
  { name: '@fastify/multipart', fastify: '5.x' },
);
