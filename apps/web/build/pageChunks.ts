import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
// by path, not '@app/shared/pageChunks': Vite bundles the config's relative imports but would hand the
// workspace package's .ts file to Node as it is
import { PAGE_CHUNKS_FILE, type PageChunks, type PageFiles } from '../../../packages/shared/src/pageChunks.ts';

/**
 * Writes `dist/page-chunks.json` (shape: @app/shared/pageChunks): which built files each page of the app needs
 * beyond the entry's own (those index.html already loads). The server reads it and adds `<link
 * rel="modulepreload">` hints for the page's texts, the layout and the screen at the requested path to
 * index.html, so a first visit downloads them in parallel with the entry instead of in more rounds after it
 * (see apps/server/src/webApp.ts). Every page, the login page too, waits for its language's texts before it
 * renders, so those are hinted everywhere.
 */

const SRC = path.resolve(import.meta.dirname, '../src');
/** Modules the layout needs at once after login (router.tsx loads both beside /auth/info). */
const LAYOUT_MODULES = ['layout/AppLayout.tsx', 'layout/screenPreload.ts'];
/** The generic resource page behind every `crud/<resource>` menu (app/screens.ts). */
const CRUD_MODULE = 'crud/ResourcePage.tsx';
/** The login page (router.tsx loads it lazily; /login is where every first visit without a session lands). */
const LOGIN_MODULE = 'pages/Login.tsx';
const REGISTRY = 'modules/registry.ts';
/** Loads each language's texts (locales/<lng>/index.ts) and its antd (zh_CN...) and dayjs (zh-cn...) locales. */
const I18N_MODULE = 'app/i18n.ts';

/** The language a locale module belongs to: locales/zh/index.ts, antd/es/locale/zh_CN.js, dayjs/locale/zh-cn.js -> zh. */
function languageOfLocaleModule(id: string): string | null {
  const m = /[\\/]locales[\\/]([a-z]{2})[\\/]index\.ts$/.exec(id) ?? /[\\/]locale[\\/]([a-z]{2})(?:[_-][A-Za-z]+)?\.js$/.exec(id);
  return m ? m[1] : null;
}

/**
 * Menu component key -> screen module, read from modules/registry.ts (`'system/user/index': () =>
 * import('./system/UserPage'),`). The build fails when an entry cannot be read, rather than hint nothing.
 */
export function readScreenRegistry(registryFile = path.join(SRC, REGISTRY)): Map<string, string> {
  const text = fs
    .readFileSync(registryFile, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const entry = /^\s*(?:'([^']+)'|([A-Za-z_$][\w$]*))\s*:\s*\(\)\s*=>\s*import\('(\.[^']+)'\)/gm;
  const screens = new Map<string, string>();
  for (const m of text.matchAll(entry)) {
    const base = path.resolve(path.dirname(registryFile), m[3]);
    const file = ['.tsx', '.ts'].map((ext) => base + ext).find((f) => fs.existsSync(f));
    if (!file) throw new Error(`${REGISTRY}: ${m[3]} (screen '${m[1] ?? m[2]}') not found`);
    screens.set(m[1] ?? m[2], file);
  }
  const imports = text.match(/import\(/g)?.length ?? 0;
  if (imports !== screens.size) throw new Error(`${REGISTRY}: read ${screens.size} screens but it has ${imports} import() calls; keep one "'key': () => import('./path')," per line`);
  return screens;
}

export function pageChunks(): Plugin {
  return {
    name: 'page-chunks',
    apply: 'build',
    enforce: 'post',
    // after Vite's own generateBundle work, which drops chunks that only held CSS (moving it to their importers)
    generateBundle: { order: 'post', handler(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      // the chunk holding a module (a dynamically imported module may share a chunk with others)
      const byModule = new Map<string, Rollup.OutputChunk>();
      for (const c of chunks) for (const id of c.moduleIds) byModule.set(path.normalize(id), c);

      /** A chunk and everything it imports statically. */
      const closure = (start: Rollup.OutputChunk, into = new Set<string>()): Set<string> => {
        if (into.has(start.fileName)) return into;
        into.add(start.fileName);
        for (const dep of start.imports) {
          const c = byFile.get(dep);
          if (c) closure(c, into);
        }
        return into;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('page-chunks: no entry chunk');
      const inIndexHtml = closure(entry);

      const missing = [...byFile.keys()].flatMap((f) => byFile.get(f)!.imports.filter((i) => !(i in bundle)).map((i) => `${f} -> ${i}`));
      if (missing.length) throw new Error(`page-chunks: imports of files not in the bundle: ${missing.join(', ')}`);

      const filesOf = (modules: string[]): PageFiles => {
        const js = new Set<string>();
        for (const m of modules) {
          const chunk = byModule.get(path.normalize(m));
          if (!chunk) throw new Error(`page-chunks: no chunk for ${path.relative(SRC, m)} (is it still in the app?)`);
          closure(chunk, js);
        }
        const own = [...js].filter((f) => !inIndexHtml.has(f));
        const css = new Set<string>();
        for (const f of own) for (const c of (byFile.get(f) as { viteMetadata?: { importedCss?: Set<string> } } | undefined)?.viteMetadata?.importedCss ?? []) css.add(c);
        return { js: own, css: [...css] };
      };

      const screens: Record<string, PageFiles> = {};
      for (const [key, file] of readScreenRegistry()) screens[key] = filesOf([file]);
      const localeModules = new Map<string, string[]>();
      for (const id of this.getModuleInfo(path.join(SRC, I18N_MODULE))?.dynamicallyImportedIds ?? []) {
        const lng = languageOfLocaleModule(id);
        if (!lng) throw new Error(`page-chunks: ${I18N_MODULE} loads ${id}, which is no locale module`);
        localeModules.set(lng, [...(localeModules.get(lng) ?? []), id]);
      }
      const locales: Record<string, PageFiles> = {};
      for (const [lng, ids] of localeModules) {
        if (!ids.some((id) => id.endsWith('index.ts'))) throw new Error(`page-chunks: no texts module for language ${lng}`);
        locales[lng] = filesOf(ids);
      }
      const result: PageChunks = {
        layout: filesOf(LAYOUT_MODULES.map((m) => path.join(SRC, m))),
        crud: filesOf([path.join(SRC, CRUD_MODULE)]),
        login: filesOf([path.join(SRC, LOGIN_MODULE)]),
        screens,
        locales,
      };
      this.emitFile({ type: 'asset', fileName: PAGE_CHUNKS_FILE, source: `${JSON.stringify(result, null, 1)}\n` });
    } },
  };
}
