import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 21 item 4, layers and cycles: the static value imports (type-only imports and dynamic `import()` excluded:
 * neither runs at load time) of the server, the shared package and the web app form no cycle, and nothing in
 * apps/server/src/core imports the layers above it (crud, modules, seed, sync). The graph is read from the sources
 * with the same resolution rules the project uses (relative paths with .ts/.tsx and index files, `@app/shared`).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCE_DIRS = ['apps/server/src', 'apps/server/migrations', 'packages/shared/src', 'apps/web/src'];
const SHARED_ENTRIES: Record<string, string> = { '': 'index', resource: 'resource/index', payroll: 'payroll/index' };

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$|typetest/.test(e.name)) out.push(rel);
    }
  };
  for (const d of SOURCE_DIRS) walk(d);
  return out;
}

// `import x from '...'`, `import {a} from '...'`, `export {a} from '...'`, `export * from '...'`, `import '...'`;
// not `import type` / `export type` (erased at compile time)
const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

function resolveImport(files: Set<string>, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@app/shared')) {
    const rest = spec.slice('@app/shared'.length).replace(/^\//, '');
    base = `packages/shared/src/${SHARED_ENTRIES[rest] ?? rest}`;
  } else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  base = base.replace(/\.(tsx?|js)$/, '');
  for (const c of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(c)) return c;
  return null;
}

/** Imports of the project's own files that resolve to no file (a moved module would otherwise hide its arrows). */
const unresolved: string[] = [];

function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(IMPORT_RE)) {
      // `import { type A, type B } from` imports nothing at run time either
      if (/^\s*import\s*\{\s*(?:type\s+\w+(?:\s+as\s+\w+)?\s*,?\s*)+\}\s*from/.test(m[0])) continue;
      const target = resolveImport(known, f, m[1]);
      if (target) deps.add(target);
      else if (/^(\.|@app\/shared)/.test(m[1]) && !/\.(css|json|svg|png)$/.test(m[1])) unresolved.push(`${f}: ${m[1]}`);
    }
    graph.set(f, [...deps]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), i.e. the import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import graph', () => {
  const graph = importGraph();

  it('reads a real graph (the resolver finds the imports)', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('apps/server/src/core/excel/writeXlsx.ts')).toContain('apps/server/src/core/excel/xlsxStream.ts');
  });

  it('resolves every import of the project own files', () => {
    expect(unresolved).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const withCycle = new Map(graph);
    withCycle.set('apps/server/src/core/excel/xlsxCells.ts', [...(graph.get('apps/server/src/core/excel/xlsxCells.ts') ?? []), 'apps/server/src/core/excel/writeXlsx.ts']);
    expect(cycles(withCycle).length).toBe(1);
  });

  it('keeps core below crud, modules, seed and sync', () => {
    const upward = [...graph]
      .filter(([f]) => f.startsWith('apps/server/src/core/'))
      .flatMap(([f, deps]) => deps.filter((d) => /^apps\/server\/src\/(crud|modules|seed|sync)\//.test(d)).map((d) => `${f} -> ${d}`));
    expect(upward).toEqual([]);
  });

  it('keeps packages/shared free of the apps, and the web app free of the server', () => {
    const wrong = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => (f.startsWith('packages/shared/') && d.startsWith('apps/')) || (f.startsWith('apps/web/') && d.startsWith('apps/server/'))).map((d) => `${f} -> ${d}`),
    );
    expect(wrong).toEqual([]);
  });
});
