import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE, type ErrorCode } from '@app/shared/errors/catalogue';
import { describe, expect, it } from 'vitest';

/**
 * Issue 21 item 2: every code of the error catalogue is used. A code counts as used when a source file of
 * apps/server, apps/web or packages/shared (not tests, not the catalogue itself) names it as a word: a
 * string literal ('EMAIL_TAKEN') or a property (ERROR_CATALOGUE.SECRET_TARGET_FIELD_CHANGED). A code nobody
 * throws is a translation nobody reads: delete it, or list it below with the reason.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCE_DIRS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];
const CATALOGUE = 'packages/shared/src/errors/catalogue.ts';

/** Codes built at run time (no source names them): none today. Each entry says where it is built. */
const BUILT_AT_RUN_TIME: Partial<Record<ErrorCode, string>> = {};

function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'e2e') walk(rel);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$|typetest/.test(e.name) && rel !== CATALOGUE) {
        out.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(d);
  return out;
}

describe('error catalogue usage', () => {
  const files = sources();
  const all = [...files.values()].join('\n');
  const named = new Set(all.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{4,}\b/g) ?? []);

  it('every catalogue code is used by a source outside the catalogue', () => {
    expect(files.size).toBeGreaterThan(300);
    const unused = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(
      (code) => !named.has(code) && !BUILT_AT_RUN_TIME[code],
    );
    expect(unused).toEqual([]);
  });

  it('the run-time list names only catalogue codes that no source names', () => {
    for (const code of Object.keys(BUILT_AT_RUN_TIME)) {
      expect(Object.hasOwn(ERROR_CATALOGUE, code), code).toBe(true);
      expect(named.has(code), `${code} is named in a source: drop it from BUILT_AT_RUN_TIME`).toBe(false);
    }
  });
});
