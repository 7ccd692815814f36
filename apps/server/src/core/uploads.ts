import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fastifyMultipart, type FastifyMultipartOptions } from '@fastify/multipart';

type MultipartHook = (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** A request with a multipart body, the only kind @fastify/multipart's content-type parser takes. */
export function carriesMultipart(req: FastifyRequest): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && /multipart/i.test(type);
}

/** The plugin's per-request hook, run for multipart requests only (a header test for every other one). */
function forMultipartOnly(hook: MultipartHook) {
  return function multipartOnly(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    if (!carriesMultipart(req)) {
      done();
      return;
    }
    hook.call(this, req, reply).then(() => done(), done);
  };
}

/**
 * Uploads (`req.file()`, `req.parts()`, `req.isMultipart()`): @fastify/multipart, whose two global hooks (an async
 * onRequest that puts a `close` listener on every answer and an async onResponse that cleans the request's saved
 * temporary files) only ever have work on a multipart request. Registered as they are, they ran on every request
 * of every route (two promises and a listener per request on /auth/info and the lists, issue 27); here each is
 * handed to Fastify behind a header test, so they still run, unchanged, on every multipart request. Everything
 * else the plugin adds (content-type parser, request decorators, error classes) goes to the app as it is.
 */
export const uploadsPlugin = fp(
  (app: FastifyInstance, opts: FastifyMultipartOptions, done: (err?: Error) => void) => {
    const hooksForMultipartOnly = new Proxy(app, {
      get(target, key) {
        if (key === 'addHook') {
          return (name: string, hook: MultipartHook) => {
            if (name === 'onRequest' || name === 'onResponse') target.addHook(name, forMultipartOnly(hook));
            // addHook's overloads pair each literal hook name with its signature; this passes any name through unchanged
            else target.addHook(name as never, hook as never);
            return hooksForMultipartOnly;
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    (fastifyMultipart as unknown as (instance: FastifyInstance, o: FastifyMultipartOptions, cb: (err?: Error) => void) => void)(hooksForMultipartOnly, opts, done);
  },
  { name: '@fastify/multipart', fastify: '5.x' },
);
