import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import { FALLBACK_LANGUAGE, acceptedLanguages, languageCookie, pickLanguage } from '@app/shared/language';
import { type MenuVo, appRoutes, buildNavigation, DASHBOARD, normalizePath } from '@app/shared/navigation';
import { PAGE_CHUNKS_FILE, type PageChunks, type PageFiles } from '@app/shared/pageChunks';
import { allMenuVos } from './modules/system/menus.ts';
import { apiNotFound, type NotFoundHandler } from './core/plugins/errors.ts';

/**
 * Serving the built web app (apps/web/dist): the hashed assets with a one-year immutable cache and pre-compressed
 * .br/.gz files, and index.html (revalidated on every load, so a new release is picked up at once) for every
 * other GET that is not an API path: the app routes on the client.
 *
 * index.html is sent with `<link rel="modulepreload">` hints for the code of the page being opened: the texts
 * of the visitor's language (cookie, then Accept-Language, as the app itself decides), the login page's code on
 * /login, the layout after login and the screen the menus put at that path (from dist/page-chunks.json, written
 * by the web build: apps/web/build/pageChunks.ts). Without them a first visit fetches that code in two more rounds after the
 * entry has run; with them it downloads beside the entry. The hints name public, content-hashed files only,
 * and the path -> screen mapping they reveal is in the public bundle anyway, so they are given to everyone.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json; charset=utf-8',
};

interface Asset {
  type: string;
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * dist/assets, served from memory. Every file there is named by its content hash, so it never changes: a
 * browser may keep it for good (one-year immutable cache) and the server reads each file (and the .br/.gz copies
 * the web build writes) once. A first visit asks for ~50 of them at once; from memory they cost a fraction of
 * what opening, stat-ing and streaming each file did.
 */
function registerAssets(app: FastifyInstance, dir: string): void {
  const cache = new Map<string, Asset>();
  // content-hashed names from the web build: letters, digits, . _ - and ~ (chunks named after the screens sharing them)
  const SAFE_NAME = /^[\w.~-]+$/;
  const read = (name: string): Asset | null => {
    const hit = cache.get(name);
    if (hit) return hit;
    let asset: Asset | null = null;
    const file = path.join(dir, name);
    const optional = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f) : undefined);
    if (SAFE_NAME.test(name) && !name.endsWith('.br') && !name.endsWith('.gz') && fs.existsSync(file) && fs.statSync(file).isFile()) {
      asset = {
        type: CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
        raw: fs.readFileSync(file),
        br: optional(`${file}.br`),
        gzip: optional(`${file}.gz`),
      };
    }
    // misses are not remembered: a rebuilt dist may add the file
    if (asset) cache.set(name, asset);
    return asset;
  };

  app.withTypeProvider<ZodTypeProvider>().get('/assets/*', { schema: { hide: true, params: z.object({ '*': z.string() }) } }, (req, reply) => {
    const name = req.params['*'];
    const asset = read(name);
    if (!asset) return apiNotFound(reply);
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const [body, encoding] = asset.br && /\bbr\b/.test(accepts) ? [asset.br, 'br'] : asset.gzip && /\bgzip\b/.test(accepts) ? [asset.gzip, 'gzip'] : [asset.raw, null];
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding').type(asset.type);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });
}

/** Pages outside the layout: no layout or screen code to hint (their texts still are). */
const PLAIN_PAGES = new Set(['/login', '/404', '/401']);

/** A file read again only when it changes on disk (a rebuilt dist is picked up without a restart). */
function watchedFile<T>(file: string, parse: (text: string) => T): () => T | null {
  let cached: { mtimeMs: number; value: T } | null = null;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      return null;
    }
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, value: parse(fs.readFileSync(file, 'utf8')) };
    return cached.value;
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The link tags for these files, minus those index.html already names. */
export function preloadLinks(files: PageFiles[], html: string): string {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const f of files) {
    for (const j of f.js) js.add(j);
    for (const c of f.css) css.add(c);
  }
  const tags: string[] = [];
  for (const j of js) if (!html.includes(`/${j}"`)) tags.push(`<link rel="modulepreload" crossorigin href="/${escapeAttr(j)}">`);
  for (const c of css) if (!html.includes(`/${c}"`)) tags.push(`<link rel="preload" as="style" crossorigin href="/${escapeAttr(c)}">`);
  return tags.join('\n    ');
}

/** The built assets' route (dist/assets). */
export function registerWebAssets(app: FastifyInstance, webDist: string): void {
  registerAssets(app, path.join(webDist, 'assets'));
}

/**
 * What a path no route serves gets (the errors plugin's not-found handler): index.html with its hints for a page
 * GET, the API's 404 for anything else. Reads the menus through `app.ctx` only when a page is asked for.
 */
export function webPages(app: FastifyInstance, webDist: string, isApiPath: (url: string) => boolean): NotFoundHandler {
  const indexHtml = watchedFile(path.join(webDist, 'index.html'), (text) => text);
  const pageChunks = watchedFile(path.join(webDist, PAGE_CHUNKS_FILE), (text) => JSON.parse(text) as PageChunks);

  /** The screen code at `pathname` (by the menus), or none. */
  const screenFiles = async (pathname: string, chunks: PageChunks): Promise<PageFiles | null> => {
    const target = pathname === '/' ? DASHBOARD.path : pathname;
    const route = appRoutes(buildNavigation((await allMenuVos(app.ctx.db)) as MenuVo[]), false).get(target);
    if (!route) return null;
    if (route.component.startsWith('crud/')) return chunks.crud;
    return chunks.screens[route.component] ?? null;
  };

  const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    const html = indexHtml();
    if (html === null) return apiNotFound(reply);
    const pathname = normalizePath(safeDecode(req.url.split('?')[0] ?? '/'));
    const chunks = pageChunks();
    let page = html;
    if (chunks) {
      const files: PageFiles[] = [];
      // the texts first: the page renders nothing before them (the fallback language's, then the user's)
      const language = pickLanguage(languageCookie(req.headers.cookie), acceptedLanguages(req.headers['accept-language']));
      for (const lng of new Set([FALLBACK_LANGUAGE, language])) if (chunks.locales?.[lng]) files.push(chunks.locales[lng]);
      // the login page's own code, like a screen's at its path (one round trip less before the form shows)
      if (pathname === '/login' && chunks.login) files.push(chunks.login);
      if (!PLAIN_PAGES.has(pathname) && !pathname.startsWith('/redirect/')) {
        files.push(chunks.layout);
        try {
          const screen = await screenFiles(pathname, chunks);
          if (screen) files.push(screen);
        } catch (err) {
          req.log.warn({ err }, 'page hints: menus not readable');
        }
      }
      const links = preloadLinks(files, html);
      if (links) page = html.replace('</head>', `    ${links}\n  </head>`);
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  };

  return (req, reply) => {
    // a missing asset (say, a chunk of an older release) is a 404, not the app's HTML under a .js name
    if (req.method === 'GET' && !isApiPath(req.url) && !req.url.startsWith('/assets/')) return sendIndex(req, reply);
    return apiNotFound(reply);
  };
}
