#!/usr/bin/env node
// Runs the whole test suite: every vitest project on SQLite, then the server API suite again on
// PostgreSQL, MariaDB/MySQL and Redis when TEST_PG_URL / TEST_MYSQL_URL / TEST_REDIS_URL are set,
// then the browser tests when Chromium is installed (or E2E=1). Ends with "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-tests-'));
const runs = [];

function vitest(label, args, env = {}) {
  const out = path.join(outDir, `${runs.length}.json`);
  console.log(`\n=== ${label} ===`);
  const r = spawnSync('npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  let passed = 0;
  let failed = 0;
  try {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed = j.numPassedTests;
    failed = j.numFailedTests + (j.numTotalTestSuites > 0 && j.success === false && j.numFailedTests === 0 ? 1 : 0);
  } catch {
    failed = 1; // the runner itself failed before reporting
  }
  if (r.status !== 0 && failed === 0) failed = 1;
  runs.push({ label, passed, failed });
}

vitest('shared + server + web on SQLite', ['--project', 'shared', '--project', 'server', '--project', 'web']);
if (process.env.TEST_PG_URL) vitest('server API on PostgreSQL', ['--project', 'server'], { TEST_DB: 'postgres' });
if (process.env.TEST_MYSQL_URL) vitest('server API on MariaDB/MySQL', ['--project', 'server'], { TEST_DB: 'mysql' });
if (process.env.TEST_REDIS_URL && !process.env.TEST_PG_URL && !process.env.TEST_MYSQL_URL) {
  // Redis is otherwise exercised together with the dialect runs above.
  vitest('server API with Redis cache', ['--project', 'server']);
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(path.join(root, 'apps/web/e2e')) && (process.env.E2E === '1' || fs.existsSync(chromium)) && process.env.E2E !== '0') {
  vitest('browser tests (chromium)', ['--project', 'e2e']);
}

let passed = 0;
let failed = 0;
console.log('\n=== summary ===');
for (const r of runs) {
  console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
