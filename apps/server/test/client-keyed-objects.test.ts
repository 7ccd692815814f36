import multipartPlugin from '@fastify/multipart';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { readUpload } from '../src/crud/excel.ts';
import { stringParams } from '../src/modules/integrations/payment/routes.ts';
import { multipart } from './dispatch-fixtures.ts';

/**
 * Objects keyed by names a client chooses (upload form fields, Alipay's notify parameters) have no prototype: a
 * parameter called `__proto__` is kept. On `{}` the assignment hit the prototype setter and the value was silently
 * dropped (for Alipay: a parameter missing from what the signature is checked over). Upload forms never get that
 * far: @fastify/multipart refuses such field names, now with their own 400 instead of '上传文件异常'.
 */
describe('objects keyed by client input', () => {
  it('upload form fields: __proto__ and constructor are refused with a clear 400, never dropped', async () => {
    const app = Fastify();
    await app.register(multipartPlugin);
    app.post('/upload', async (req) => {
      const upload = await readUpload(req);
      return { own: Object.keys(upload.fields), constructor: Object.hasOwn(upload.fields, 'constructor') ? upload.fields.constructor : null };
    });
    const send = (fields: [string, string][]) => {
      const mp = multipart(Buffer.from('x'), 'a.xlsx', Object.fromEntries(fields));
      return app.inject({ method: 'POST', url: '/upload', headers: mp.headers, payload: mp.payload });
    };
    const kept = await send([['companyId', '7']]);
    expect(kept.json()).toEqual({ own: ['companyId'], constructor: null });
    for (const name of ['__proto__', 'constructor']) {
      const refused = await send([[name, 'x'], ['companyId', '7']]);
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'UPLOAD_FIELD_NAME', message: '上传表单含有无效的字段名' });
    }
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    await app.close();
  });

  it('Alipay notify parameters keep a parameter named __proto__', () => {
    const raw = JSON.parse('{"out_trade_no":"T1","__proto__":"x","sign":"s"}') as Record<string, unknown>;
    const params = stringParams(raw)!;
    expect(Object.keys(params)).toEqual(['out_trade_no', '__proto__', 'sign']);
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe('x');
    expect(stringParams({ a: 1 })).toBeNull();
  });
});
