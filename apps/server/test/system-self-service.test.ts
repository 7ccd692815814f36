import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { createTestApp, loginResponse, type TestApp } from './helpers.ts';
import { caller, createUser, FIXTURE_PASSWORD, idOf, tokenFor } from './system-fixtures.ts';

let t: TestApp;
let pk: string;
let employeeRole: number;
const enc = (s: string) => encryptLoginPassword(pk, s);

beforeAll(async () => {
  t = await createTestApp();
  pk = t.app.ctx.keys.rsaPublicKeyPem;
  employeeRole = await idOf(t, 'sys_role', '普通员工');
});
afterAll(async () => {
  await t.close();
});

async function freshUser(username: string) {
  const id = await createUser(t, { username, roleIds: [employeeRole] });
  const res = await loginResponse(t.app, username, FIXTURE_PASSWORD);
  expect(res.statusCode).toBe(200);
  const token = res.json().token as string;
  return { id, token, call: caller(t, token) };
}

describe('changing the password', () => {
  it('needs the old password, encrypted fields, a new length of 6-20 and a different value', async () => {
    const u = await freshUser('pass_rules');
    const cases: [Record<string, unknown>, string][] = [
      [{ oldPass: FIXTURE_PASSWORD, newPass: 'abcdef12' }, '密码未加密或加密方式不正确，请刷新页面后重试'],
      [{ newPass: enc('abcdef12') }, '请输入旧密码'],
      [{ oldPass: enc(FIXTURE_PASSWORD) }, '请输入新密码'],
      [{ oldPass: enc(FIXTURE_PASSWORD), newPass: enc('12345') }, '长度在 6 到 20 个字符'],
      [{ oldPass: enc(FIXTURE_PASSWORD), newPass: enc('x'.repeat(21)) }, '长度在 6 到 20 个字符'],
      [{ oldPass: enc('wrong-password'), newPass: enc('abcdef12') }, '修改失败，旧密码错误'],
      [{ oldPass: enc(FIXTURE_PASSWORD), newPass: enc(FIXTURE_PASSWORD) }, '新密码不能与旧密码相同'],
    ];
    for (const [body, message] of cases) {
      const res = await u.call('POST', '/api/users/updatePass/', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await loginResponse(t.app, 'pass_rules', FIXTURE_PASSWORD)).statusCode).toBe(200);
  });

  it('changes it, kills every older token and records the reset time', async () => {
    const u = await freshUser('pass_change');
    const otherSession = caller(t, (await loginResponse(t.app, 'pass_change', FIXTURE_PASSWORD)).json().token);
    const before = await t.app.ctx.db.selectFrom('sys_user').select('last_password_reset_time').where('id', '=', u.id).executeTakeFirstOrThrow();
    const res = await u.call('POST', '/api/users/updatePass/', { oldPass: enc(FIXTURE_PASSWORD), newPass: enc('NewSecret1') });
    expect(res.statusCode).toBe(200);
    expect((await u.call('GET', '/auth/info')).statusCode).toBe(401);
    expect((await otherSession('GET', '/auth/info')).statusCode).toBe(401);
    expect((await loginResponse(t.app, 'pass_change', FIXTURE_PASSWORD)).statusCode).toBe(400);
    const again = await loginResponse(t.app, 'pass_change', 'NewSecret1');
    expect(again.statusCode).toBe(200);
    expect((await caller(t, again.json().token)('GET', '/auth/info')).statusCode).toBe(200);
    const after = await t.app.ctx.db.selectFrom('sys_user').select('last_password_reset_time').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(after.last_password_reset_time).not.toBe(before.last_password_reset_time);
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/users/updatePass/', payload: {} })).statusCode).toBe(401);
  });
});

describe('changing the e-mail address', () => {
  const lastCode = () => {
    const m = t.mail.sent.at(-1);
    return /(\d{6})/.exec(m?.html ?? '')?.[1] ?? '';
  };

  it('sends a 6-digit code to the new address and changes it with code and password', async () => {
    const u = await freshUser('mail_change');
    const sent = await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'New.Mail@Example.com' });
    expect(sent.statusCode).toBe(200);
    expect(t.mail.sent.at(-1)!.to).toEqual(['new.mail@example.com']);
    const code = lastCode();
    expect(code).toMatch(/^\d{6}$/);

    const wrongPassword = await u.call('POST', `/api/users/updateEmail/${code}`, { email: 'new.mail@example.com', password: enc('nope-nope') });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe('密码错误');
    const plainPassword = await u.call('POST', `/api/users/updateEmail/${code}`, { email: 'new.mail@example.com', password: FIXTURE_PASSWORD });
    expect(plainPassword.statusCode).toBe(400);

    const ok = await u.call('POST', `/api/users/updateEmail/${code}`, { email: 'new.mail@example.com', password: enc(FIXTURE_PASSWORD) });
    expect(ok.statusCode).toBe(200);
    expect((await u.call('GET', '/auth/info')).json().email).toBe('new.mail@example.com');
    // single use
    const reuse = await u.call('POST', `/api/users/updateEmail/${code}`, { email: 'new.mail@example.com', password: enc(FIXTURE_PASSWORD) });
    expect(reuse.statusCode).toBe(400);
  });

  it('refuses the current address, a taken one, bad formats and unknown types', async () => {
    const u = await freshUser('mail_rules');
    await createUser(t, { username: 'mail_owner', roleIds: [employeeRole], email: 'taken@example.com' });
    const same = await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'mail_rules@fixture.test' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('新邮箱不能与旧邮箱相同');
    expect((await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'taken@example.com' })).statusCode).toBe(409);
    const bad = await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'not-mail' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('邮箱格式错误');
    expect((await u.call('POST', '/api/code/resetEmail', { type: 'sms', value: 'a@b.cn' })).statusCode).toBe(400);
    const sameOnChange = await u.call('POST', '/api/users/updateEmail/123456', { email: 'mail_rules@fixture.test', password: enc(FIXTURE_PASSWORD) });
    expect(sameOnChange.json().message).toBe('新邮箱不能与旧邮箱相同');
  });

  it('allows one code a minute, and a code dies after 5 wrong guesses', async () => {
    const u = await freshUser('mail_limits');
    expect((await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'limits@example.com' })).statusCode).toBe(200);
    const code = lastCode();
    const again = await u.call('POST', '/api/code/resetEmail', { type: 'email', value: 'limits@example.com' });
    expect(again.statusCode).toBe(429);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await u.call('POST', `/api/users/updateEmail/${wrong}`, { email: 'limits@example.com', password: enc(FIXTURE_PASSWORD) });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe('验证码错误或已过期');
    }
    const late = await u.call('POST', `/api/users/updateEmail/${code}`, { email: 'limits@example.com', password: enc(FIXTURE_PASSWORD) });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('验证码错误或已过期');
  });

  it('a code is bound to the user and the address it was sent to', async () => {
    const a = await freshUser('mail_bound_a');
    const b = await freshUser('mail_bound_b');
    await a.call('POST', '/api/code/resetEmail', { type: 'email', value: 'bound@example.com' });
    const code = lastCode();
    expect((await b.call('POST', `/api/users/updateEmail/${code}`, { email: 'bound@example.com', password: enc(FIXTURE_PASSWORD) })).statusCode).toBe(400);
    expect((await a.call('POST', `/api/users/updateEmail/${code}`, { email: 'other@example.com', password: enc(FIXTURE_PASSWORD) })).statusCode).toBe(400);
    expect((await a.call('POST', `/api/users/updateEmail/${code}`, { email: 'bound@example.com', password: enc(FIXTURE_PASSWORD) })).statusCode).toBe(200);
  });
});

describe('avatar', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
  const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

  function multipart(content: Buffer, filename: string, contentType: string, field = 'file') {
    const boundary = '----avatar-test-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  async function upload(token: string, content: Buffer, filename = 'me.png', contentType = 'image/png', field = 'file') {
    const { payload, headers } = multipart(content, filename, contentType, field);
    return t.app.inject({ method: 'POST', url: '/api/users/updateAvatar', payload, headers: { ...headers, authorization: `Bearer ${token}` } });
  }

  it('stores an image under a random name, serves it publicly with its type and removes the old one', async () => {
    const id = await createUser(t, { username: 'avatar_user', roleIds: [employeeRole] });
    const token = await tokenFor(t, id);
    const first = await upload(token, PNG);
    expect(first.statusCode).toBe(200);
    const name1 = first.json().avatar as string;
    expect(name1).toMatch(/^[0-9a-f]{32}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: `/avatar/${name1}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    // The declared name and type do not matter: the content does.
    const second = await upload(token, JPG, 'evil.php', 'application/x-php');
    expect(second.statusCode).toBe(200);
    const name2 = second.json().avatar as string;
    expect(name2).toMatch(/\.jpg$/);
    expect((await t.app.inject({ method: 'GET', url: `/avatar/${name2}` })).headers['content-type']).toBe('image/jpeg');
    expect(fs.existsSync(path.join(t.config.dataDir, 'avatars', name1))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/avatar/${name1}` })).statusCode).toBe(404);
    const row = await t.app.ctx.db.selectFrom('sys_user').select('avatar').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.avatar).toBe(name2);
  });

  it('refuses non-images, files over 5 MB, other fields and non-multipart bodies', async () => {
    const id = await createUser(t, { username: 'avatar_bad', roleIds: [employeeRole] });
    const token = await tokenFor(t, id);
    const html = await upload(token, Buffer.from('<html><script>alert(1)</script></html>'), 'x.png', 'image/png');
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toBe('头像只能是 PNG、JPG、GIF 或 WebP 图片');
    const big = await upload(token, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 0)]));
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toBe('头像文件不能超过5MB');
    expect((await upload(token, PNG, 'me.png', 'image/png', 'other')).statusCode).toBe(400);
    expect((await caller(t, token)('POST', '/api/users/updateAvatar', { file: 'x' })).statusCode).toBe(400);
    const row = await t.app.ctx.db.selectFrom('sys_user').select('avatar').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.avatar).toBeNull();
  });

  it('serves only generated names', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.svg', '0123456789abcdef0123456789abcdef.html', '0123456789abcdef0123456789abcdef.png']) {
      expect((await t.app.inject({ method: 'GET', url: `/avatar/${name}` })).statusCode).toBe(404);
    }
  });
});
