import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 21 item 1: the web names no API URL outside its two clients. Hand-written routes are called through
 * app/contractClient.ts (the URL is the shared contract's path), generic resources through crud/resourceClient.ts
 * (the URL comes from the shared resourcePaths, as on the server). Any other file holding a string or template
 * literal that starts with `/api/` or `/auth/` fails here, unless it is listed in fixtures/literal-api-url-files.json:
 * the files still to convert. That list may only shrink: a listed file that no longer holds one fails too, so the
 * list stays the true backlog. Comments do not count (the TypeScript scanner reads only literals).
 */
const SRC = path.resolve(import.meta.dirname, '..');
const BACKLOG_FILE = path.join(import.meta.dirname, 'fixtures', 'literal-api-url-files.json');
const backlog: string[] = JSON.parse(fs.readFileSync(BACKLOG_FILE, 'utf8'));

/** The clients themselves: the only places a URL is put together. */
const CLIENTS = new Set(['app/contractClient.ts', 'crud/resourceClient.ts']);
// /v3 is the API document's path (contracts/apiDocs.ts)
const API_URL = /^\/(api|api-docs|auth|v3)(\/|\?|$)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' || e.name === 'fixtures' ? [] : sourceFiles(full);
    // tests and compile-time tests fake or probe URLs on purpose
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|\.typetest\.ts$|\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The API URLs a file spells as string or template literals (a template counts by its head: `/api/${name}`). */
export function literalApiUrls(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) && API_URL.test(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const holding = sourceFiles(SRC)
  .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
  .filter((rel) => !CLIENTS.has(rel))
  .filter((rel) => literalApiUrls(rel, fs.readFileSync(path.join(SRC, rel), 'utf8')).length > 0)
  .sort();

describe('no literal API URLs on the web (issue 21)', () => {
  it('finds string literals, template heads and JSX attributes, but not comments', () => {
    const text = [
      "// calls '/api/commented' in a comment",
      "const a = api.get('/api/things');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the probe is source text holding a template
      'const b = api.del(`/api/${name}/${id}`);',
      'const c = <Excel exportUrl="/api/export/x" />;',
      "const d = request({ url: '/auth/login' });",
      "const e = '/apiary'; const f = 'http://host/api/x';",
    ].join('\n');
    expect(literalApiUrls('probe.tsx', text)).toEqual(['/api/things', '/api/', '/api/export/x', '/auth/login']);
  });

  it('has no literal API URL outside the clients but in the listed backlog, and the backlog is current', () => {
    const unlisted = holding.filter((f) => !backlog.includes(f));
    expect(unlisted, 'call through app/contractClient.ts (a shared contract) or crud/resourceClient.ts (a resource) instead').toEqual([]);
    const stale = backlog.filter((f) => !holding.includes(f));
    expect(stale, 'these files hold no literal API URL any more: remove them from fixtures/literal-api-url-files.json').toEqual([]);
  });
});
