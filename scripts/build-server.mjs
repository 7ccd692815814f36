#!/usr/bin/env node
// The server as plain JavaScript, for `npm start` (issue 27): apps/server/src/main.ts and everything it imports from
// the project (the server, packages/shared, the migrations) bundled by esbuild into apps/server/dist; packages from
// node_modules stay imports, and what the server loads on first use (import()) stays a separate chunk loaded then.
// Without the tsx loader at run time a started server holds ~50 MB less (bench/http-floor.ts prints idle RSS) and
// compiles nothing when it starts.
//
// Built only when what it is built from changed since the last build (a hash of apps/server/src,
// apps/server/migrations, packages/shared/src, the package files and this script, kept in dist/.build-hash);
// FORCE_SERVER_BUILD=1 builds anyway. `node scripts/build-server.mjs` builds; bench/http-floor.ts imports
// bundleServer for its floor server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_DIST = path.join(root, 'apps/server/dist');
const stampFile = path.join(SERVER_DIST, '.build-hash');
const PACKAGE_FILES = ['package.json', 'apps/server/package.json', 'packages/shared/package.json'];
const SOURCES = ['apps/server/src', 'apps/server/migrations', 'packages/shared/src'];

function* filesUnder(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

function sourceHash() {
  const hash = crypto.createHash('sha256');
  const inputs = [...SOURCES.flatMap((d) => [...filesUnder(path.join(root, d))]), ...PACKAGE_FILES.map((f) => path.join(root, f)), path.join(root, 'package-lock.json'), import.meta.filename];
  for (const file of inputs) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Every package the project declares, but its own workspace package (TypeScript, bundled). */
function externalPackages() {
  const names = new Set();
  for (const f of PACKAGE_FILES) {
    const p = JSON.parse(fs.readFileSync(path.join(root, f), 'utf8'));
    for (const name of Object.keys({ ...p.dependencies, ...p.devDependencies, ...p.optionalDependencies })) names.add(name);
  }
  names.delete('@app/shared');
  return [...names].flatMap((n) => [n, `${n}/*`]);
}

/**
 * Source files find files beside them through import.meta (the web build, the locales, package.json). In a bundle
 * import.meta is the output file's, so each use is rewritten to the source file's own place, worked out from the
 * output file's location at run time (the installation may move). `outdir` is where the bundle goes.
 */
function importMetaOfSources(outdir) {
  return {
    name: 'import-meta-of-sources',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const dir = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/') || '.';
        const file = path.relative(outdir, args.path).split(path.sep).join('/');
        // (the output's own import.meta.url goes in last, so that no replacement meets another's output)
        const contents = text
          .replaceAll('import.meta.dirname', `__bundleSourcePath(__OUTPUT_URL__, ${JSON.stringify(dir)})`)
          .replaceAll('import.meta.filename', `__bundleSourcePath(__OUTPUT_URL__, ${JSON.stringify(file)})`)
          .replaceAll('import.meta.url', `new URL(${JSON.stringify(file)}, __OUTPUT_URL__).href`)
          .replaceAll('__OUTPUT_URL__', 'import.meta.url');
        return { contents, loader: 'ts' };
      });
    },
  };
}

const BANNER = [
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  "import { resolve as __bundleResolve, dirname as __bundleDirname } from 'node:path';",
  'const __bundleSourcePath = (url, relative) => __bundleResolve(__bundleDirname(__bundleFileURLToPath(url)), relative);',
].join('\n');

/** Bundle `entry` (a .ts file) into `outdir` as ES modules (entry name.js plus chunks). */
export async function bundleServer(entry, outdir) {
  const { build } = await import('esbuild');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    target: 'node20',
    outdir,
    external: externalPackages(),
    plugins: [importMetaOfSources(outdir)],
    banner: { js: BANNER },
    // Whitespace and syntax only: V8 keeps every module's source text in memory (2.4 MB for main.js), so this is
    // idle memory (issue 27). Identifiers stay, so stack traces and error class names read as in the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    logLevel: 'warning',
  });
  asciiOnly(outdir);
}

/**
 * esbuild writes strings as ASCII escapes but leaves regular expressions and template literals as they are, so a
 * handful of Chinese characters (`/^(全部|本级)$/`, sql`... '是' ...`) made V8 hold the whole 1.2 MB main.js as a
 * two-byte string: 2.3 MB of idle heap instead of 1.2 (issue 27). Each character beyond ASCII becomes its `\uXXXX`
 * escape, which means the same character in a string, a regular expression, a template literal's text and an
 * identifier alike (only a template's `.raw` would differ, and the sources read no `.raw`).
 */
function asciiOnly(outdir) {
  for (const name of fs.readdirSync(outdir)) {
    if (!name.endsWith('.js')) continue;
    const file = path.join(outdir, name);
    const text = fs.readFileSync(file, 'utf8');
    if (!/[^ -~\t\n\r]/.test(text)) continue;
    // `\（` in a regular expression would turn into `\\uff08` (a backslash, then text): refuse rather than guess
    if (/\\[\u0080-\uffff]/.test(text)) throw new Error(`${file}: a backslash before a non-ASCII character; write it without the backslash`);
    fs.writeFileSync(file, text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
}

/** Build apps/server/dist unless it was built from the same sources. */
export async function buildServerIfChanged() {
  const wanted = sourceHash();
  const main = path.join(SERVER_DIST, 'main.js');
  if (process.env.FORCE_SERVER_BUILD !== '1' && fs.existsSync(main) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8').trim() === wanted) return false;
  console.log('构建服务端 / building the server (apps/server/dist)...');
  await bundleServer(path.join(root, 'apps/server/src/main.ts'), SERVER_DIST);
  fs.writeFileSync(stampFile, `${wanted}\n`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServerIfChanged();
}
