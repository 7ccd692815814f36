/**
 * Runs every benchmark in this folder one after another (each prints its own figures and targets).
 * `npm run bench` or `node --import tsx bench/run.ts [name...]`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));
for (const f of files) {
  console.log(`\n##### ${f}`);
  spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit' });
}
