#!/usr/bin/env node
// `npm start` builds the web app only when what it is built from changed since the last build (the build and
// its compression take 1-1.5 minutes on a 2-core machine, and most starts change nothing in the web app).
//
// What the build reads: apps/web (but its dist, node_modules and browser tests), packages/shared/src and the
// lock file. A hash of their paths and contents is written beside the built files (dist/.build-hash); a start
// whose hash matches skips the build. FORCE_WEB_BUILD=1 builds anyway.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const dist = path.join(web, 'dist');
const stampFile = path.join(dist, '.build-hash');
const SKIPPED = new Set(['dist', 'node_modules', 'e2e', 'test-results', 'screenshots']);

function* filesUnder(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

function sourceHash() {
  const hash = crypto.createHash('sha256');
  const inputs = [...filesUnder(web), ...filesUnder(path.join(root, 'packages/shared/src')), path.join(root, 'package-lock.json')];
  for (const file of inputs) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const wanted = sourceHash();
const built = fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
if (built === wanted && process.env.FORCE_WEB_BUILD !== '1') {
  console.log('web app: up to date (its sources are unchanged since the last build); FORCE_WEB_BUILD=1 rebuilds it');
  process.exit(0);
}
console.log(built ? 'web app: sources changed since the last build, building…' : 'web app: no build yet, building…');
const result = spawnSync('npm', ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(stampFile, `${wanted}\n`);
