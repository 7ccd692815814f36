#!/usr/bin/env node
// Writes .gz and .br beside every compressible file of the built web app (argument: the dist folder), so the
// server can send them as they are (apps/server/src/webApp.ts) instead of the plain files or compressing on
// every request. Small files are left alone: compressing them gains nothing.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'dist');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/i;
const MIN_BYTES = 1024;
let files = 0;
let before = 0;
let afterGzip = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (COMPRESSIBLE.test(entry.name)) compress(file);
  }
}

function compress(file) {
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) return;
  const gz = zlib.gzipSync(data, { level: 9 });
  const br = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  fs.writeFileSync(`${file}.gz`, gz);
  fs.writeFileSync(`${file}.br`, br);
  files++;
  before += data.length;
  afterGzip += gz.length;
}

walk(dist);
console.log(`compressed ${files} files: ${(before / 1024).toFixed(0)} KB -> ${(afterGzip / 1024).toFixed(0)} KB gzip (+ .br)`);
