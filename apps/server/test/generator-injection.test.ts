import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentText, q } from '../src/modules/tools/generator/printing.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { type Caller, caller } from './system-fixtures.ts';

/**
 * N7: the code generator prints texts it did not write — its settings (author), the database's table names and
 * table/column comments — into TypeScript files a developer copies into the project and runs. A hostile text
 * is refused when saved, and whatever still reaches the files (a database comment, an older saved author) ends
 * up inside a comment or a string literal: the generated files parse and hold no code of their own.
 */

const N7_AUTHOR = "*/;import('node:child_process').then(c=>c.execSync('id'));/*";
const HOSTILE = `*/ import('node:child_process').then(c=>c.execSync('id')) /*\n*/ execSync('id'); /*\r\n\u2028*/ execSync('id') //\u2029'"\\`;
/** The N7 author shortened to the 50 characters the column holds. */
const STORED_AUTHOR = "*/;import('cp').then(c=>c.execSync('id'));/*";
/** A column default of the hostile kind, short enough for varchar(50). */
const HOSTILE_DEFAULT = "*/ id()\n/*'";
const CONFIG = { pack: 'packages/shared/src/resources', moduleName: 'apps/server/migrations', path: 'apps/web/src/locales', apiPath: 'generated' };

let t: TestApp;
let admin: Caller;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  admin = caller(t, token);
});
afterAll(async () => {
  await t?.close();
});

interface Preview {
  files: { path: string; language: string; content: string }[];
}

/** Syntax errors of a TypeScript file, and the code in it that is not the generator's own. */
function inspect(content: string): { errors: string[]; foreign: string[] } {
  const out = ts.transpileModule(content, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const source = ts.createSourceFile('generated.ts', content, ts.ScriptTarget.ES2022, true);
  const foreign: string[] = [];
  const visit = (node: ts.Node) => {
    // a dynamic import(), or any identifier of the injected code: comments and string literals are no nodes
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) foreign.push(`import(): ${node.getText()}`);
    if (ts.isIdentifier(node) && ['execSync', 'then', 'c'].includes(node.text)) foreign.push(`identifier ${node.text}`);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !['kysely', '../resource/types.ts', '../src/core/tableBuilder.ts', './index.ts'].includes(node.moduleSpecifier.text)) {
      foreign.push(`import from ${node.moduleSpecifier.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // the transpiled JavaScript has no import() call either (its comments are dropped, strings stay strings)
  const js = ts.createSourceFile('generated.js', out.outputText, ts.ScriptTarget.ES2022, true);
  const visitJs = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) foreign.push(`js import(): ${node.getText()}`);
    ts.forEachChild(node, visitJs);
  };
  visitJs(js);
  return { errors, foreign };
}

/** Every generated file: TypeScript parses clean with no foreign code, JSON parses, the README keeps its lines. */
function expectHarmless(preview: Preview, readmeLines: number) {
  for (const f of preview.files) {
    if (f.language === 'typescript') expect(inspect(f.content), f.path).toEqual({ errors: [], foreign: [] });
    if (f.language === 'json') expect(() => JSON.parse(f.content), f.path).not.toThrow();
    if (f.language === 'markdown') {
      expect(f.content.split('\n'), f.path).toHaveLength(readmeLines);
      expect(f.content).not.toMatch(/[\r\u2028\u2029]/);
    }
    expect(f.path).not.toMatch(/[\r\n\u2028\u2029]/);
  }
}

async function preview(table: string): Promise<Preview> {
  const res = await admin('POST', `/api/generator?tableName=${encodeURIComponent(table)}&preview=true`, []);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Preview;
}

describe(`generated code cannot be injected (${TEST_DB})`, () => {
  it('the printers: strings are JSON-quoted, comment texts stay on one line and cannot close the comment', () => {
    for (const text of [N7_AUTHOR, HOSTILE, "it's", '\\', '\u0000', '**/']) {
      const literal = q(text);
      expect(inspect(`export const x = ${literal};`), text).toEqual({ errors: [], foreign: [] });
      // the literal means the text itself
      expect(new Function(`return ${literal};`)()).toBe(text);
      const comment = commentText(text);
      expect(comment).not.toMatch(/\*\/|[\r\n\u2028\u2029]/);
      expect(comment).not.toContain('\u0000');
      expect(inspect(`/**\n * ${comment}\n */\nexport const y = 1;`), text).toEqual({ errors: [], foreign: [] });
    }
  });

  it('refuses a hostile author (N7) and line breaks in the settings with the catalogue message', async () => {
    const before = (await admin('GET', '/api/genConfig')).json();
    // the N7 text itself is also over the 50 characters an author may have: any 400 will do
    const n7 = await admin('PUT', '/api/genConfig', { author: N7_AUTHOR, ...CONFIG });
    expect(n7.statusCode).toBe(400);
    expect((await admin('PUT', '/api/genConfig', { author: N7_AUTHOR.slice(0, 50), ...CONFIG })).json().message).toBe('作者只能是一行文字，不能包含换行、控制字符或 */');
    for (const author of ["*/;import('x');/*", 'a\nb', 'a\r\nb', 'a\rb', 'a\u2028b', 'a\u2029b', 'a*/b', 'a\u0000b', 'a\u001bb']) {
      const res = await admin('PUT', '/api/genConfig', { author, ...CONFIG });
      expect(res.statusCode, JSON.stringify(author)).toBe(400);
      expect(res.json().message).toBe('作者只能是一行文字，不能包含换行、控制字符或 */');
      const en = await t.app.inject({ method: 'PUT', url: '/api/genConfig', headers: { ...bearer(token), 'accept-language': 'en' }, payload: { author, ...CONFIG } });
      expect(en.json().message).toMatch(/^The author must be one line/);
    }
    expect((await admin('GET', '/api/genConfig')).json()).toEqual(before);
    expect((await admin('PUT', '/api/genConfig', { author: '张三 /* 审核 */', ...CONFIG })).statusCode).toBe(400);
    expect((await admin('PUT', '/api/genConfig', { author: '张三（人事部）/ 李四', ...CONFIG })).statusCode).toBe(200);
  });

  it('refuses line breaks and */ in a column label', async () => {
    for (const label of ['姓名\n*/ x', '姓名*/', '姓\u2028名', '姓\r名']) {
      const res = await admin('PUT', '/api/generator/columns?tableName=sys_dict', [{ columnName: 'name', label }]);
      expect(res.statusCode, JSON.stringify(label)).toBe(400);
      expect(res.json().message).toBe('字段标签只能是一行文字，不能包含换行、控制字符或 */');
    }
  });

  it('a hostile author saved before the check, and hostile database names and comments, end up inside comments and strings', async () => {
    const { db } = t.app.ctx;
    // an author stored before the settings refused it
    expect((await admin('PUT', '/api/genConfig', { author: 'admin', ...CONFIG })).statusCode).toBe(200);
    await db.updateTable('gen_config').set({ author: STORED_AUTHOR }).execute();
    const benign = await preview('sys_dict');
    const readmeLines = benign.files.find((f) => f.language === 'markdown')!.content.split('\n').length;
    expectHarmless(benign, readmeLines);
    expect(benign.files.find((f) => f.path.includes('/migrations/'))!.content).toContain('for * /;import(');

    let table: string;
    if (TEST_DB === 'sqlite') {
      // SQLite keeps no comments: the hostile text is the table's name, which the generator shows as its label
      table = `gen_evil ${HOSTILE}`;
      await sql`create table ${sql.id(table)} (id integer primary key autoincrement, staff_name varchar(50) not null default ${sql.lit(HOSTILE_DEFAULT)}, create_time varchar(32))`.execute(db);
    } else {
      table = 'gen_evil';
      const comment = sql.lit(HOSTILE);
      if (TEST_DB === 'postgres') {
        await sql`create table gen_evil (id serial primary key, staff_name varchar(50) not null default ${sql.lit(HOSTILE_DEFAULT)}, create_time varchar(32))`.execute(db);
        await sql`comment on table gen_evil is ${comment}`.execute(db);
        await sql`comment on column gen_evil.staff_name is ${comment}`.execute(db);
      } else {
        await sql`create table gen_evil (id int auto_increment primary key, staff_name varchar(50) not null default ${sql.lit(HOSTILE_DEFAULT)} comment ${comment}, create_time varchar(32)) comment ${comment}`.execute(db);
      }
    }
    try {
      const evil = await preview(table);
      expectHarmless(evil, readmeLines);
      const definition = evil.files.find((f) => f.path.startsWith('packages/'))!.content;
      // the texts are still there, as data: the table's label, and (PostgreSQL, MariaDB) the column's label
      expect(definition).toContain("execSync(\\'id\\')");
      if (TEST_DB !== 'sqlite') expect(definition).toMatch(/name: 'staffName', kind: 'string', label: '\*\/ import\(/);
    } finally {
      await sql`drop table ${sql.id(table)}`.execute(db);
    }
  });

  it('refuses a column whose name cannot be a field name', async () => {
    const { db } = t.app.ctx;
    await sql`create table gen_badcol (id integer primary key, ${sql.id('2nd value')} varchar(10))`.execute(db);
    try {
      const res = await admin('POST', '/api/generator?tableName=gen_badcol&preview=true', []);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('GENERATOR_COLUMN_IDENTIFIER');
    } finally {
      await sql`drop table gen_badcol`.execute(db);
    }
  });
});
