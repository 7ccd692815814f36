/**
 * Storage streaming (issue 12): upload and download of a 200 MB file (BENCH_STORAGE_MB) through the real HTTP
 * API — multipart POST /api/qiNiuContent, then GET download/{id} and the URL it gives — to local disk and to an
 * S3 stand-in (s3rver in a child process, so its memory is not counted). Prints MB/s and the peak RSS of this
 * process (server and client) above its level before the transfer: it must stay flat (tens of MB), not grow
 * with the file. Target: peak RSS growth < 100 MB for a 200 MB file.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../apps/server/src/app.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';
import { benchConfig, loginAdmin } from './_app.ts';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_STORAGE_MB ?? 200);

let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);

async function startS3rverChild(dir: string): Promise<{ endpoint: string; stop: () => void }> {
  const script = `import S3rver from 's3rver';
const s = new S3rver({ port: 0, address: '127.0.0.1', directory: ${JSON.stringify(dir)}, silent: true, configureBuckets: [{ name: 'bench' }] });
const { port } = await s.run(); console.log('PORT ' + port);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(import.meta.dirname, '../apps/server'), stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited ${code}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function uploadMultipart(base: string, token: string, file: string, name: string): Promise<{ id: number }> {
  const boundary = `----bench${crypto.randomBytes(6).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/zip\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/qiNiuContent`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length } },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode} ${body}`))));
      },
    );
    req.on('error', reject);
    (async () => {
      req.write(head);
      for await (const chunk of fs.createReadStream(file, { highWaterMark: MB })) if (!req.write(chunk)) await new Promise<void>((r) => req.once('drain', () => r()));
      req.end(tail);
    })().catch(reject);
  });
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
  // a zip-looking file (the storage screen checks magic bytes): local file header, then random bytes
  const file = path.join(tmp, 'big.zip');
  const out = fs.createWriteStream(file);
  out.write(Buffer.from('504b0304140000000800', 'hex'));
  // with back-pressure, so that generating the file does not inflate the RSS the transfers are measured against
  for (let i = 0; i < SIZE_MB; i++) if (!out.write(crypto.randomBytes(MB))) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise((r) => out.end(r));

  const { database, drop } = await openThrowawayDatabase('sqlite', undefined, { sqliteInMemory: true });
  // production: the storage routes as deployed (no API docs); the upload cap above the file's size
  const config = benchConfig(tmp, { dbUrl: 'bench', production: true, apiDocs: false, storageMaxMb: SIZE_MB + 10 });
  const app = await buildApp(config, { database });
  await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: 'bench-admin-1', production: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const { token } = await loginAdmin(app, 'bench-admin-1');
  const s3 = await startS3rverChild(path.join(tmp, 's3'));

  const targets: [string, () => Promise<void>][] = [
    ['local disk', async () => {}],
    [
      's3rver',
      async () => {
        const res = await fetch(`${base}/api/qiNiuConfig`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 's3', accessKey: 'S3RVER', secretKey: 'bench', bucket: 'bench', host: 'http://cdn.invalid', zone: '华东', type: '私有', endpoint: s3.endpoint }),
        });
        if (res.status !== 204) throw new Error(`config ${res.status} ${await res.text()}`);
      },
    ],
  ];
  console.log(`storage: ${SIZE_MB} MB file through the HTTP API (server and client in this process)`);
  for (const [label, setup] of targets) {
    await setup();
    global.gc?.();
    const before = process.memoryUsage().rss;
    peak = before;
    let t0 = performance.now();
    const { id } = await uploadMultipart(base, token, file, `${label}.zip`);
    const upSeconds = (performance.now() - t0) / 1000;
    const upPeak = peak;
    const { url } = await (await fetch(`${base}/api/qiNiuContent/download/${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    peak = process.memoryUsage().rss;
    const downBefore = peak;
    t0 = performance.now();
    const res = await fetch(url.startsWith('/') ? `${base}${url}` : url);
    let bytes = 0;
    await pipeline(Readable.fromWeb(res.body as never), async (src: AsyncIterable<Buffer>) => {
      for await (const c of src) bytes += c.length;
    });
    const downSeconds = (performance.now() - t0) / 1000;
    const mb = bytes / MB;
    console.log(
      `  ${label.padEnd(10)} upload ${(mb / upSeconds).toFixed(0).padStart(4)} MB/s (peak RSS +${((upPeak - before) / MB).toFixed(0)} MB)   download ${(mb / downSeconds).toFixed(0).padStart(4)} MB/s (peak RSS +${((peak - downBefore) / MB).toFixed(0)} MB)   bytes ${bytes === fs.statSync(file).size ? 'equal' : `DIFFER ${bytes}`}`,
    );
  }
  console.log(`  peak RSS of the process: ${(peak / MB).toFixed(0)} MB; target: growth < 100 MB per transfer`);
  clearInterval(sampler);
  s3.stop();
  await app.close();
  await drop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

await main();
