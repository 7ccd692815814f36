/**
 * Runs every benchmark in this folder one after another (each prints its own figures and targets), then
 * repeats the speed figures of issue 13 item 6 together: each benchmark marks such a line with `[speed]`
 * (users list vs the driver on SQLite, PostgreSQL keyword search, cold users table in the browser), and issue 20's
 * payslip import (payslip-import.ts: 200,000 rows on SQLite, PostgreSQL and MariaDB, each with its OK/MISSED).
 * `npm run bench` or `node --import tsx bench/run.ts [name...]`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));
const speed: string[] = [];
for (const f of files) {
  console.log(`\n##### ${f}`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: ['inherit', 'pipe', 'inherit'] });
  // passed through line by line as it comes, so long benchmarks still show their progress
  for await (const line of readline.createInterface({ input: child.stdout })) {
    console.log(line);
    if (line.startsWith('[speed]')) speed.push(`${line.slice('[speed]'.length).trim()}   (${f})`);
  }
  const code: number | null = child.exitCode ?? (await new Promise((resolve) => child.once('exit', resolve)));
  if (code) speed.push(`${f} failed (exit code ${code})`);
}
if (speed.length) {
  console.log('\n##### speed figures (issue 13 item 6, issue 20), each next to its target and its baseline from this run');
  for (const s of speed) console.log(`- ${s}`);
}
