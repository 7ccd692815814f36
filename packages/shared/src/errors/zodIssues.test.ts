import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codedText, issueMessage } from './zodIssues.ts';

describe('codedText', () => {
  it("carries its code through zod's own checks (type, min, regex, refine), with the Chinese text as the message", () => {
    const s = z.object({
      a: z.string(codedText('MONTH_REQUIRED')).regex(/^x$/, codedText('MONTH_FORMAT_INVALID')),
      b: z.string().min(3, codedText('TEXT_TOO_LONG', { label: 'b', max: 3 })),
      c: z.number().refine((n) => n > 0, codedText('PAGE_SIZE_RANGE', { max: 9 })),
    });
    const r = s.safeParse({ a: 'y', b: 'q', c: -1 });
    expect(r.success).toBe(false);
    const issues = r.error!.issues;
    expect(issues.map((i) => issueMessage(i))).toEqual([
      { code: 'MONTH_FORMAT_INVALID', params: {} },
      { code: 'TEXT_TOO_LONG', params: { label: 'b', max: 3 } },
      { code: 'PAGE_SIZE_RANGE', params: { max: 9 } },
    ]);
    expect(issues[0].message).toBe('月份格式应为YYYY-MM');
    expect(issueMessage(s.safeParse({ a: 1, b: 'abc', c: 1 }).error!.issues[0])).toEqual({ code: 'MONTH_REQUIRED', params: {} });
  });

  it('gives a check that states plain text instead of a code the code of its kind (its wording is lost)', () => {
    const s = z.object({
      a: z.string().min(3, '太短了'),
      b: z.number().refine((n) => n > 0, '必须是正数'),
      c: z.string().regex(/^x$/, '格式不对'),
    });
    const issues = s.safeParse({ a: 'q', b: -1, c: 'y' }).error!.issues;
    expect(issues.map((i) => issueMessage(i))).toEqual([
      { code: 'FIELD_TOO_SHORT', params: { label: 'a', min: 3 } },
      { code: 'FIELD_INVALID', params: { label: 'b' } },
      { code: 'FIELD_FORMAT', params: { label: 'c' } },
    ]);
  });
});

/** Contract files give codes, never text: no Chinese literal in a message position (so new ones cannot creep in). */
describe('contract messages', () => {
  const ROOT = join(import.meta.dirname, '../contracts');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
    });
  const HAN = /[\u4e00-\u9fff]/;
  const MESSAGE_POSITIONS = [
    /\b(?:error|message)\s*:\s*(['`"])((?:(?!\1).)*)\1/g,
    /\.(?:min|max|int|finite|regex|refine|length|positive|nonnegative|gt|gte|lt|lte)\((?:[^()'`"]|\([^()]*\))*?(['`"])((?:(?!\1).)*)\1\s*\)/g,
    /\b(?:queryText|queryId|idSchema|idListInput)\(\s*(['`"])((?:(?!\1).)*)\1/g,
  ];
  it('hold no Chinese message', () => {
    const found: string[] = [];
    for (const file of files(ROOT)) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const re of MESSAGE_POSITIONS) for (const m of code.matchAll(re)) if (HAN.test(m[2])) found.push(`${file}: ${m[0].slice(0, 80)}`);
    }
    expect(files(ROOT).length).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
