#!/usr/bin/env node
// Runs the whole test suite: every vitest project on SQLite, then the server API suite again on
// PostgreSQL, MariaDB/MySQL and Redis when TEST_PG_URL / TEST_MYSQL_URL / TEST_REDIS_URL are set,
// then the browser tests when Chromium is installed (or E2E=1). Ends with "N passed, N failed".
//
// The PostgreSQL and MariaDB runs go side by side (TEST_PARALLEL=0 runs them one after the other): vitest
// runs one file at a time on a 2-core machine, and a server test mostly waits for its database, so two
// dialects at once take little more than one. Each run's output is kept and printed whole when it ends.
//
// TEST_BROWSER_BESIDE=1 starts the browser tests at once, beside the SQLite run and then the database runs, instead
// of at the end. The browser run mostly waits (measured alone: 484 s of CPU in 1939 s on a loaded machine), so this
// could save most of its time; but on a machine already loaded by other work two browser tests then failed
// (system.e2e.ts, models.e2e.ts), so it stays off until it has been shown stable on a quiet CI machine.
//
// A failed test is run once more (vitest --retry=1; TEST_RETRY=0 turns this off). A test that passes only on
// its second try still counts as passed but is named under "flaky" in the summary with its first failure, so
// a timing-sensitive test shows up instead of failing CI at random; a test that fails twice fails the run.
// The summary names every failed test and file, so the tail of a CI log says what broke.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-tests-'));
// Every temp folder a test makes (data folders, throwaway SQLite files, fake dist folders, child servers'
// DATA_DIR) goes under this one, through TMPDIR, and is removed when the run ends: a run used to leave
// ~150 folders in /tmp.
const testTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-test-tmp-'));
const runs = [];
let runNumber = 0;
const suiteStarted = Date.now();

const firstLine = (text) => (text ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '';

/** One vitest run; `buffered` keeps its output until it ends (for runs side by side). */
function vitest(label, args, env = {}, { buffered = false } = {}) {
  const n = runNumber++;
  const out = path.join(outDir, `${n}.json`);
  const logFile = path.join(outDir, `${n}.log`);
  console.log(buffered ? `\n(${label}: started; its output comes when it ends)` : `\n=== ${label} ===`);
  const started = Date.now();
  return new Promise((resolve) => {
    const retry = process.env.TEST_RETRY === '0' ? [] : ['--retry=1'];
    // Output always goes to the log file too, so that errors vitest prints outside its JSON report (unhandled
    // rejections after a test ended) can be named in the summary.
    const log = fs.createWriteStream(logFile);
    const child = spawn('npx', ['vitest', 'run', ...args, ...retry, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: testTmp, ...env },
    });
    for (const [stream, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.on('data', (chunk) => {
        log.write(chunk);
        if (!buffered) target.write(chunk);
      });
    }
    child.on('close', async (status) => {
      await new Promise((done) => log.end(done));
      const output = fs.readFileSync(logFile, 'utf8');
      if (buffered) {
        console.log(`\n=== ${label} ===`);
        process.stdout.write(output);
      }
      let passed = 0;
      let failed = 0;
      const failures = [];
      const flaky = [];
      try {
        const j = JSON.parse(fs.readFileSync(out, 'utf8'));
        passed = j.numPassedTests;
        failed = j.numFailedTests + (j.numTotalTestSuites > 0 && j.success === false && j.numFailedTests === 0 ? 1 : 0);
        for (const file of j.testResults ?? []) {
          const where = path.relative(root, file.name);
          const tests = file.assertionResults ?? [];
          for (const t of tests) {
            const first = firstLine(t.failureMessages?.[0]);
            if (t.status === 'failed') failures.push(`${where} > ${t.fullName}: ${first}`);
            else if (t.status === 'passed' && t.failureMessages?.length) flaky.push(`${where} > ${t.fullName}: ${first}`);
          }
          // a file that failed outside its tests (import error, beforeAll/afterAll hook)
          if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) failures.push(`${where}: ${firstLine(file.message)}`);
        }
      } catch {
        failed = 1; // the runner itself failed before reporting
        failures.push(`${label}: vitest ended with status ${status} before writing its report`);
      }
      const unhandled = unhandledErrors(output);
      for (const u of unhandled) failures.push(`${label}: ${u}`);
      if (status !== 0 && failed === 0) {
        failed = 1;
        if (unhandled.length === 0) failures.push(`${label}: vitest ended with status ${status}`);
      }
      runs.push({ n, label, passed, failed, failures, flaky, seconds: Math.round((Date.now() - started) / 1000) });
      resolve();
    });
  });
}

/**
 * The errors vitest caught outside any test ("Unhandled Rejection", "Unhandled Error"): they fail the run
 * without failing a test, so the JSON report does not name them. Each becomes "its first line (its test file)".
 */
function unhandledErrors(output) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in vitest's output
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/⎯ Unhandled (Rejection|Error) ⎯/.test(lines[i])) continue;
    const message = lines.slice(i + 1).find((l) => l.trim()) ?? '';
    const origin = lines.slice(i + 1, i + 60).find((l) => /originated in|The latest test that might/.test(l)) ?? '';
    found.push(`unhandled: ${message.trim().slice(0, 300)}${origin ? ` (${origin.trim().slice(0, 200)})` : ''}`);
  }
  return found;
}

const parallel = process.env.TEST_PARALLEL !== '0';
// the server API suite: the files sharing one module graph, and the few that change registries (vitest.config.ts)
const SERVER_PROJECTS = ['--project', 'server', '--project', 'server-isolated'];
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserRun = fs.existsSync(path.join(root, 'apps/web/e2e')) && (process.env.E2E === '1' || fs.existsSync(chromium)) && process.env.E2E !== '0';
// What this run will do and roughly how long it takes on a 2-core machine, so nobody waits blind.
console.log(
  [
    'npm test runs:',
    '  1. shared, server API and web component tests on SQLite',
    process.env.TEST_PG_URL ? '  2. the server API suite on PostgreSQL (TEST_PG_URL)' : '  -  PostgreSQL: skipped (set TEST_PG_URL=postgres://user@host:5432/db to run the API suite on it)',
    process.env.TEST_MYSQL_URL ? '  3. the server API suite on MariaDB/MySQL (TEST_MYSQL_URL)' : '  -  MariaDB/MySQL: skipped (set TEST_MYSQL_URL=mysql://root@host:3306/db)',
    process.env.TEST_PG_URL || process.env.TEST_MYSQL_URL ? '     (the database runs go side by side; TEST_PARALLEL=0 runs them one after the other)' : '',
    browserRun ? `  4. browser tests in ${chromium} (E2E=0 skips them; TEST_BROWSER_BESIDE=1 runs them beside 1-3)` : '  -  browser tests: skipped (no Chromium at CHROMIUM_PATH, or E2E=0)',
    'One file: npx vitest run --project server apps/server/test/<name>.test.ts (--project server-isolated for the files vitest.config.ts lists)',
  ]
    .filter(Boolean)
    .join('\n'),
);
const browserBeside = parallel && browserRun && process.env.TEST_BROWSER_BESIDE === '1';
const browserTests = (buffered) => vitest('browser tests (chromium)', ['--project', 'e2e'], {}, { buffered });
const sqliteRun = vitest('shared + server + web on SQLite', ['--project', 'shared', '--project', 'server', '--project', 'server-isolated', '--project', 'web'], {}, { buffered: browserBeside });
const browserDone = browserBeside ? browserTests(true) : Promise.resolve();
await sqliteRun;
const dialectRuns = [];
if (process.env.TEST_PG_URL) dialectRuns.push(['server API on PostgreSQL', SERVER_PROJECTS, { TEST_DB: 'postgres' }]);
if (process.env.TEST_MYSQL_URL) dialectRuns.push(['server API on MariaDB/MySQL', SERVER_PROJECTS, { TEST_DB: 'mysql' }]);
if (parallel && dialectRuns.length > 1) {
  await Promise.all(dialectRuns.map(([label, args, env]) => vitest(label, args, env, { buffered: true })));
} else {
  for (const [label, args, env] of dialectRuns) await vitest(label, args, env, { buffered: browserBeside });
}
if (process.env.TEST_REDIS_URL && !process.env.TEST_PG_URL && !process.env.TEST_MYSQL_URL) {
  // Redis is otherwise exercised together with the dialect runs above.
  await vitest('server API with Redis cache', SERVER_PROJECTS, {}, { buffered: browserBeside });
}
await browserDone;
if (browserRun && !browserBeside) await browserTests(false);

let passed = 0;
let failed = 0;
console.log('\n=== summary ===');
for (const r of runs.sort((a, b) => a.n - b.n)) {
  console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed (${r.seconds} s)`);
  for (const f of r.failures) console.log(`  FAILED ${f}`);
  for (const f of r.flaky) console.log(`  flaky (failed once, passed on its retry) ${f}`);
  passed += r.passed;
  failed += r.failed;
}
fs.rmSync(testTmp, { recursive: true, force: true });
console.log(`all runs: ${Math.round((Date.now() - suiteStarted) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
