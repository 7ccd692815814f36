import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Packages that only some installations or rare actions need are imported where they are first used, never
 * on the way the server starts (README "Where things are"): loaded at start they held 28 MB of live heap, and V8
 * lets the heap grow to about four times what survives a collection, so the 100,000-staff import peaked at
 * 570-600 MB instead of ~470 MB (bench/dispatch.ts, target <= 500 MB).
 *
 * Walks the static imports from the server's entry points (app.ts, main.ts) through the project's own files and
 * fails on a value import of one of these packages; `import type` and `await import()` are what they should use.
 */
const OPTIONAL_PACKAGES = ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', 'bullmq', 'alipay-sdk', 'nodemailer', 'exceljs', '@e965/xlsx'];
/**
 * Issue 27 (idle memory, bench/http-floor.ts): the captcha's font renderer, the mail HTML sanitiser, the zip
 * writer, the .xlsx XML tokenizer and the database drivers (only the one DB_URL names; the data sources' on their
 * first read) — each 1-3 MB of heap and more of parsed code (core/onFirstUse.ts).
 */
const LOADED_WHEN_USED = ['svg-captcha', 'sanitize-html', 'yazl', 'saxes', 'pg', 'mysql2', 'better-sqlite3'];

const SERVER_SRC = path.resolve(import.meta.dirname, '../src');
const SHARED_SRC = path.resolve(import.meta.dirname, '../../../packages/shared/src');

/** `import x from 'y'`, `import { a } from 'y'`, `export { a } from 'y'`, `import 'y'` — not `import type`. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolveLocal(from: string, spec: string): string | undefined {
  let base: string | undefined;
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith('@app/shared/')) base = path.join(SHARED_SRC, spec.slice('@app/shared/'.length));
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every package a start loads, with the first file that imports it. */
function packagesLoadedAtStart(entries: string[]): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) {
      const spec = m[1];
      const local = resolveLocal(file, spec);
      if (local) queue.push(local);
      else if (!spec.startsWith('.') && !spec.startsWith('node:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!packages.has(name)) packages.set(name, path.relative(SERVER_SRC, file));
      }
    }
  }
  return packages;
}

describe('optional packages are loaded on first use', () => {
  const loaded = packagesLoadedAtStart([path.join(SERVER_SRC, 'app.ts'), path.join(SERVER_SRC, 'main.ts')]);

  it('the walk sees the packages a start does load (so it is not finding nothing)', () => {
    expect(loaded.has('fastify')).toBe(true);
    expect(loaded.has('kysely')).toBe(true);
    expect(loaded.has('zod')).toBe(true);
  });

  it.each([...OPTIONAL_PACKAGES, ...LOADED_WHEN_USED])('%s is not imported on the way the server starts', (name) => {
    expect(loaded.get(name), `${name} is imported statically by ${loaded.get(name)}`).toBeUndefined();
  });
});
