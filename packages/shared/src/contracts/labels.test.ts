import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LABEL_PARAMS, renderError } from '../errors/catalogue.ts';
import { RESOURCE_DEFINITIONS } from '../resources/index.ts';
import { translateDefinitionLabel } from '../resources/labels.ts';
import { RULE_TEXTS } from '../resources/ruleTexts.ts';
import { CONTRACT_LABELS } from './labels.ts';

/**
 * Issue 21 item 2: every Chinese label a contract puts in a coded message (`codedText('TEXT_TOO_LONG', { label:
 * '备注', max: 500 })`, `safeText('用户名', 255)`) reads in en, es and ja, through the one label translator the
 * renderer is given (resources/labels.ts: the definitions' labels, then CONTRACT_LABELS). The labels are read
 * from the contracts' sources, so a label added to a contract without a translation fails here.
 */
const CONTRACTS = import.meta.dirname;
const OTHER_LANGUAGES = ['en', 'es', 'ja'] as const;
const HAN = /\p{Script=Han}/u;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const parse = (fileName: string, text: string) => ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

const literalText = (node: ts.Node | undefined) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined);

/**
 * Functions that take a label and pass it on into a message (`safeText(label, max)`, `roleAssignment(key,
 * label)`): their name and the position of their parameter named `label`.
 */
export function labelHelpers(source: ts.SourceFile): Map<string, number> {
  const found = new Map<string, number>();
  const note = (name: ts.Node | undefined, fn: ts.SignatureDeclarationBase) => {
    const at = fn.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === 'label');
    if (name && ts.isIdentifier(name) && at >= 0) found.set(name.text, at);
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node)) note(node.name, node);
    if (ts.isVariableDeclaration(node) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) note(node.name, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The Chinese labels a source passes into messages: the value of a label parameter (`{ label: '备注' }`, the keys
 * the renderer translates) and the label argument of a label helper (`safeText('用户名', 255)`).
 */
export function chineseLabels(source: ts.SourceFile, helpers: ReadonlyMap<string, number>): string[] {
  const found: string[] = [];
  const keep = (text: string | undefined) => {
    if (text !== undefined && HAN.test(text)) found.push(text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && LABEL_PARAMS.has(node.name.text)) keep(literalText(node.initializer));
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && helpers.has(node.expression.text)) keep(literalText(node.arguments[helpers.get(node.expression.text)!]));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sources = sourceFiles(CONTRACTS).map((file) => parse(file, fs.readFileSync(file, 'utf8')));
const helpers = new Map(sources.flatMap((s) => [...labelHelpers(s)]));
/** Chinese label -> the contract files that use it. */
const used = new Map<string, Set<string>>();
for (const s of sources) {
  for (const label of chineseLabels(s, helpers)) used.set(label, (used.get(label) ?? new Set()).add(path.relative(CONTRACTS, s.fileName)));
}

describe('reading the contracts for labels', () => {
  it('finds label parameters and label helpers, but no other text', () => {
    const probe = parse(
      'probe.ts',
      [
        "const a = codedText('TEXT_TOO_LONG', { label: '备注', max: 500 });",
        "const b = queryText({ code: 'FIELD_TOO_LONG', params: { label: '命名空间', max: 100 } });",
        'function pick(key: string, label: string) { return codedText(\'FIELD_CHOOSE\', { label }); }',
        "const c = pick('menus', '菜单'); const d = box('盒子', 10);",
        'const box = (label: string, max: number) => safeText(label, max);',
        "const e = { summary: '列表', tags: ['标签'], label: 'English', keys: '键名' };",
        "const f = z.literal('万条'); const g = pick('选项', 'x');",
      ].join('\n'),
    );
    const probeHelpers = labelHelpers(probe);
    expect([...probeHelpers]).toEqual([
      ['pick', 1],
      ['box', 0],
    ]);
    expect(chineseLabels(probe, probeHelpers)).toEqual(['备注', '命名空间', '菜单', '盒子']);
  });

  it('finds the labels the contracts use', () => {
    expect([...helpers.keys()]).toEqual(expect.arrayContaining(['safeText', 'roleAssignment']));
    expect([...used.keys()]).toEqual(expect.arrayContaining(['备注', '用户名', '菜单', '命名空间', 'Cron表达式', '原因（至少2个字）']));
  });
});

describe.each(OTHER_LANGUAGES)('contract labels in %s', (lng) => {
  it('translate every Chinese label a contract passes into a message', () => {
    const missing = [...used].filter(([zh]) => !translateDefinitionLabel(zh, lng)?.trim()).map(([zh, files]) => `${zh} (${[...files].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('are not Chinese copies', () => {
    // en and es hold no Chinese at all; ja may share a word with Chinese but not copy a whole label
    const copies = Object.entries(CONTRACT_LABELS).filter(([zh, t]) => (lng === 'ja' ? t.ja === zh && zh.length > 2 : HAN.test(t[lng])));
    expect(copies).toEqual([]);
  });

  it('render a contract message without Chinese', () => {
    expect(renderError('TEXT_TOO_LONG', { label: '发票号码', max: 50 }, lng, translateDefinitionLabel)).not.toMatch(lng === 'ja' ? /发票/ : HAN);
  });
});

describe('the contract labels table', () => {
  it('holds only labels a contract uses', () => {
    expect(Object.keys(CONTRACT_LABELS).filter((zh) => !used.has(zh))).toEqual([]);
  });

  it('repeats no label the definitions already translate (theirs would win)', () => {
    const known = new Set([
      ...Object.keys(RULE_TEXTS),
      ...RESOURCE_DEFINITIONS.flatMap((def) => [def.label, ...def.fields.map((f) => f.label)].filter((zh) => definitionTranslates(def, zh))),
    ]);
    expect(Object.keys(CONTRACT_LABELS).filter((zh) => known.has(zh))).toEqual([]);
  });
});

/** True when `def` itself translates its label or field label `zh` in every language. */
function definitionTranslates(def: (typeof RESOURCE_DEFINITIONS)[number], zh: string): boolean {
  return OTHER_LANGUAGES.every((lng) => {
    const texts: Record<string, string> = def.labels?.[lng] ?? {};
    if (def.label === zh && texts._label) return true;
    return def.fields.some((f) => f.label === zh && texts[f.name]);
  });
}
