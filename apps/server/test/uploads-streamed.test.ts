import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** core/uploads.ts: @fastify/multipart without its temporary-file hooks; uploads are streamed, never saved. */
let t: TestApp;
let saveRefusal: string | undefined;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.post('/test/upload-streamed', { config: { auth: 'public' } }, async (req) => {
      const files: { name: string; bytes: number; field?: string }[] = [];
      for await (const part of req.parts()) {
        if (part.type === 'file') files.push({ name: part.filename, bytes: (await part.toBuffer()).length });
        else files.push({ name: part.fieldname, bytes: 0, field: String(part.value) });
      }
      return { files };
    });
    app.post('/test/upload-saved', { config: { auth: 'public' } }, async (req) => {
      try {
        await req.saveRequestFiles();
      } catch (err) {
        saveRefusal = (err as Error).message;
      }
      return { refused: saveRefusal !== undefined };
    });
  });
});
afterAll(async () => {
  await t?.close();
});

function multipart(boundary: string, parts: string[]): string {
  return `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;
}

describe('uploads', () => {
  it('streams a multipart upload (fields and file) to the handler', async () => {
    const boundary = 'b0undary';
    const payload = multipart(boundary, ['Content-Disposition: form-data; name="note"\r\n\r\n月度', 'Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello']);
    const res = await t.app.inject({ method: 'POST', url: '/test/upload-streamed', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().files).toEqual([
      { name: 'note', bytes: 0, field: '月度' },
      { name: 'a.txt', bytes: 5 },
    ]);
  });

  it('refuses to save an upload to temporary files (nothing would delete them)', async () => {
    const boundary = 'b0undary';
    const payload = multipart(boundary, ['Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello']);
    const res = await t.app.inject({ method: 'POST', url: '/test/upload-saved', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.json()).toEqual({ refused: true });
    expect(saveRefusal).toMatch(/streamed/);
  });

  it('adds no per-request hook of its own: GET /auth/info runs the security check and its guard, nothing else', async () => {
    // the plugin's onRequest/onResponse hooks ran on every request before (as multipartOnly, behind a header test)
    const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    const at = lines.findIndex((line) => line.endsWith('/auth/info (GET)'));
    const hooks: string[] = [];
    for (const line of lines.slice(at + 1)) {
      if (!line.includes('• (')) break;
      hooks.push(line.slice(line.indexOf('• (') + 2));
    }
    expect(hooks).toEqual(['(onRequest) ["securityHeadersWhenInjected()","guard()"]']);
  });
});
