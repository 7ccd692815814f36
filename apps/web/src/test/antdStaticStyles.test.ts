import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { antdStaticStyles } from '../../build/antdStaticStyles';

type Transform = (this: { parse: typeof parseAst }, code: string, id: string) => { code: string } | null;
const transform = antdStaticStyles().transform as unknown as Transform;
const run = (code: string, id: string) => transform.call({ parse: parseAst }, code, id);

const ANTD = '/app/node_modules/antd/es/button/style/index.js';
const SAMPLE = `import { genStyleHooks, genSubStyleComponent } from '../../theme/internal';
const genButtonStyle = token => ({ [token.componentCls]: { color: token.colorText } });
export const prepareComponentToken = token => ({ fontWeight: 400 });
export default genStyleHooks('Button', token => [genButtonStyle(token)], prepareComponentToken, { unitless: { fontWeight: true } });
export const Compact = genSubStyleComponent(['Button', 'compact'], genButtonStyle, prepareComponentToken);
`;

describe('antd style generators left out of the build (static antd.css)', () => {
  it('replaces the style function of every style hook, keeps the rest of each call', () => {
    const out = run(SAMPLE, ANTD)!.code;
    expect(out).toContain("genStyleHooks('Button', () => [], prepareComponentToken, { unitless: { fontWeight: true } })");
    expect(out).toContain("genSubStyleComponent(['Button', 'compact'], () => [], prepareComponentToken)");
    expect(() => parseAst(out)).not.toThrow();
  });

  it('leaves other modules alone', () => {
    expect(run(SAMPLE, '/app/src/crud/theme.ts')).toBeNull();
    expect(run('export const x = 1;', ANTD)).toBeNull();
  });

  it("rewrites antd's real button styles into valid code", () => {
    const file = path.resolve(import.meta.dirname, '../../../../node_modules/antd/es/button/style/index.js');
    const out = run(fs.readFileSync(file, 'utf8'), file);
    expect(out?.code).toContain('() => []');
    expect(() => parseAst(out!.code)).not.toThrow();
  });
});
