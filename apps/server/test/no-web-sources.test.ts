import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 21 item 4: the server reads no web file at run time. Its labels come from the shared definitions
 * (packages/shared/src/resources, `labels`), never from apps/web/src; only the built app (apps/web/dist) is served.
 * The check reads every server source and migration (comments stripped) for a path into the web app's sources:
 * a relative path climbing into web/src (or e2e, build), a path join with 'web' and 'src' as parts, or an import.
 */
const SERVER = path.resolve(import.meta.dirname, '..');
const DIRS = ['src', 'migrations'];

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|mjs)$/.test(e.name)) out.push(p);
    }
  };
  for (const d of DIRS) walk(path.join(SERVER, d));
  return out;
}

/** The code without its comments (a path named in a comment reads nothing). */
const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const WEB_SOURCE_PATHS = [
  // '../../../web/src/locales', '../../apps/web/build'
  /['"`](?:\.\.\/)+(?:apps\/)?web\/(?:src|e2e|build)\b/,
  // path.join(root, 'web', 'src', ...) / path.resolve(dir, '..', 'web', 'src')
  /['"`]web['"`]\s*,\s*['"`](?:src|e2e|build)['"`]/,
];

describe('the server and the web sources', () => {
  it('no server source or migration reads from apps/web/src', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => {
      const code = withoutComments(fs.readFileSync(file, 'utf8'));
      return WEB_SOURCE_PATHS.filter((re) => re.test(code)).map((re) => `${path.relative(SERVER, file)} matches ${re}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the check catches the way the server used to read the web label files', () => {
    const old = `const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../web/src/locales');`;
    expect(WEB_SOURCE_PATHS.some((re) => re.test(withoutComments(old)))).toBe(true);
    expect(WEB_SOURCE_PATHS.some((re) => re.test(`path.join(root, 'apps', 'web', 'src', 'locales')`))).toBe(true);
    // serving the built app is not reading its sources
    expect(WEB_SOURCE_PATHS.some((re) => re.test(`path.join(import.meta.dirname, '../../web/dist')`))).toBe(false);
  });
});
