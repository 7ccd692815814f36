import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README stands alone in a fresh clone (finding R1): it and the pages under docs/ name no file outside the
 * repository, and every docs page it lists exists. (The two commands themselves are run by CI on a fresh clone.)
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const pages = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];

describe('README and docs', () => {
  it('name no file outside the repository', () => {
    for (const page of pages) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      const dir = path.dirname(path.join(ROOT, page));
      // relative references in backticks or markdown links that climb out of the page's folder
      for (const m of text.matchAll(/(?:`|\]\()((?:\.\.\/)+[^`)\s]*)/g)) {
        const target = path.resolve(dir, m[1]);
        expect(target.startsWith(ROOT + path.sep) || target === ROOT, `${page}: ${m[1]}`).toBe(true);
      }
      expect(text, page).not.toMatch(/\.\.\/shared\//);
    }
  });

  it('lists docs pages that exist', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const listed = [...readme.matchAll(/`(docs\/[\w.-]+\.md)`/g)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(0);
    for (const p of listed) expect(fs.existsSync(path.join(ROOT, p)), p).toBe(true);
  });
});
