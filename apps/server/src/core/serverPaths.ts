import path from 'node:path';

/**
 * Stored error details (the error log, the scheduler's run log) are read on a screen by administrators who are
 * not the host's owners: they keep the stack frames a developer needs, but not where the server lives on disk.
 * Absolute prefixes become relative: the project root is dropped (`apps/server/src/...`), DATA_DIR becomes
 * `DATA_DIR/`, and any path into a `node_modules` folder (also a package store outside the project) starts at
 * `node_modules/`.
 */

/** The repository root: this file is apps/server/src/core/serverPaths.ts. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../../..');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An absolute path (optionally a file:// URL) up to and including its last node_modules folder (pnpm nests them). */
const INTO_NODE_MODULES = /(?:file:\/\/)?\/[^\s'"()<>]*\/node_modules\//g;

/** `dir/...` (as a path or a file:// URL) -> `name...`; `dir` on its own -> `bare`. */
function replaceDir(text: string, dir: string, name: string, bare: string): string {
  const d = escapeRegExp(dir.replace(/\/+$/, ''));
  return text.replace(new RegExp(`(?:file://)?${d}/`, 'g'), name).replace(new RegExp(`(?:file://)?${d}(?=[\\s'"():,]|$)`, 'g'), bare);
}

/**
 * `text` without the server's absolute paths. `dataDir` is the configured DATA_DIR (default: the DATA_DIR
 * environment variable as config.ts resolves it).
 */
export function stripServerPaths(text: string, dataDir = path.resolve(process.env.DATA_DIR ?? './data')): string {
  let out = text.replace(INTO_NODE_MODULES, 'node_modules/');
  // the longer prefix first: a DATA_DIR inside the project is named as such, not as `data/`
  const roots: [string, string, string][] = [
    [dataDir, 'DATA_DIR/', 'DATA_DIR'],
    [PROJECT_ROOT, '', '.'],
    [process.cwd(), '', '.'],
  ];
  roots.sort((a, b) => b[0].length - a[0].length);
  for (const [dir, name, bare] of roots) if (dir.length > 1) out = replaceDir(out, dir, name, bare); // never the file-system root
  return out;
}
