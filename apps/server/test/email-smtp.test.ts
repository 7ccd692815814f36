import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { SmtpMailSender } from '../src/modules/integrations/email/mailer.ts';
import { captureLogLines, readMail, STAND_IN_PASS, STAND_IN_USER, type SmtpStandIn, startSmtpStandIn } from './email-fixtures.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, createUser, FIXTURE_PASSWORD, idOf, tokenFor, caller, userWithCodes } from './system-fixtures.ts';

/**
 * The e-mail tool against real SMTP servers on loopback: implicit SSL and STARTTLS, the 535 of a wrong
 * password as a clear message, HTML sanitised before it leaves, a Chinese subject intact, inline images as cid
 * attachments, the mail log, and the personal centre's change-e-mail code really delivered.
 */

let t: TestApp;
let admin: Caller;
let ssl: SmtpStandIn;
let starttls: SmtpStandIn;
let logLines: string[];

const settings = (port: number, sslEnable: boolean, pass: string = STAND_IN_PASS) => ({ id: 1, fromUser: STAND_IN_USER, user: STAND_IN_USER, pass, host: '127.0.0.1', port, sslEnable });

// 1x1 transparent PNG
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

beforeAll(async () => {
  [ssl, starttls] = await Promise.all([startSmtpStandIn('ssl'), startSmtpStandIn('starttls')]);
  // the stand-ins listen on loopback: allowed as an on-host relay would be
  t = await createTestApp({ smtpTlsRejectUnauthorized: false, logRequests: true, smtpHostAllowlist: ['127.0.0.1'] });
  logLines = captureLogLines(t.app.log);
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([ssl?.close(), starttls?.close()]);
});

describe(`e-mail tool (${TEST_DB})`, () => {
  it('says clearly that no mail server is configured, before any is', async () => {
    const sender = new SmtpMailSender(t.app.ctx.db, t.app.ctx.secrets);
    await expect(sender.send({ to: ['a@example.com'], subject: 'x', html: '<p>x</p>' })).rejects.toMatchObject({ code: 'EMAIL_NOT_CONFIGURED', status: 409 });
    const send = await admin('POST', '/api/email', { subject: '测试', tos: ['a@example.com'], content: '<p>hi</p>' });
    expect(send.statusCode).toBe(409);
    expect(send.json().message).toContain('尚未配置邮件服务器');
    const view = (await admin('GET', '/api/email')).json();
    expect(view).toMatchObject({ id: 1, pass: '', host: '', sslEnable: true });
  });

  it('checks the settings form by the spec rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...settings(465, true), fromUser: '' }, '请输入发件人邮箱'],
      [{ ...settings(465, true), fromUser: 'not-mail' }, '请输入正确的邮箱地址'],
      [{ ...settings(465, true), user: ' ' }, '请输入发件用户名'],
      [{ ...settings(465, true), host: '' }, 'SMTP地址不能为空'],
      [{ ...settings(465, true), host: 'smtp://smtp.qq.com' }, 'SMTP地址格式不正确，只填写主机名，如 smtp.qq.com'],
      [{ ...settings(465, true), port: '' }, 'SMTP端口不能为空'],
      [{ ...settings(465, true), port: 70000 }, 'SMTP端口必须是1到65535之间的整数'],
      [{ ...settings(465, true), pass: '' }, '密码不能为空'],
    ];
    for (const [body, message] of cases) {
      const res = await admin('PUT', '/api/email', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('stores the password sealed, never returns it, and keeps it when the mask is saved back', async () => {
    expect((await admin('PUT', '/api/email', settings(ssl.port, true))).statusCode).toBe(204);
    const view = (await admin('GET', '/api/email')).json();
    expect(view).toMatchObject({ fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: '******', host: '127.0.0.1', port: ssl.port, sslEnable: true });
    expect(JSON.stringify(view)).not.toContain(STAND_IN_PASS);
    const row = await t.app.ctx.db.selectFrom('tool_email_config' as never).selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(STAND_IN_PASS);
    // saving the form as shown (masked password) keeps the stored one: the connection test still logs in
    expect((await admin('PUT', '/api/email', { ...view, pass: '******' })).statusCode).toBe(204);
    const test = await admin('POST', '/api/email/test', { ...view, pass: '' });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().message).toBe('连接成功');
  });

  it('explains a 535 as a wrong password with the 授权码 hint, and a wrong SSL setting as such', async () => {
    const wrong = await admin('POST', '/api/email/test', settings(ssl.port, true, 'my-login-password'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('EMAIL_AUTH_FAILED');
    expect(wrong.json().message).toContain('授权码');
    // SSL ticked against a STARTTLS port (587-style): the TLS handshake meets a plain greeting. Nothing proves the
    // peer speaks SMTP, so it reads as a closed port does (no port scanner), with the SSL hint
    const mismatch = await admin('POST', '/api/email/test', settings(starttls.port, true));
    expect(mismatch.json()).toMatchObject({ code: 'EMAIL_CONNECT_FAILED', message: `无法连接邮件服务器 127.0.0.1:${starttls.port}，请检查SMTP地址、端口和SSL设置（465端口一般勾选SSL，587/25端口一般不勾选）` });
    const closed = await admin('POST', '/api/email/test', settings(1, false));
    expect(closed.json()).toMatchObject({ code: 'EMAIL_CONNECT_FAILED', message: '无法连接邮件服务器 127.0.0.1:1，请检查SMTP地址、端口和SSL设置（465端口一般勾选SSL，587/25端口一般不勾选）' });
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const en = await t.app.inject({ method: 'POST', url: '/api/email/test', headers: { ...bearer(token), 'accept-language': 'en' }, payload: settings(ssl.port, true, 'nope') });
    expect(en.json().message).toContain('authorization code');
  });

  it('sends over SSL: sanitised HTML, the Chinese subject intact, inline images as cid attachments, logged', async () => {
    await admin('PUT', '/api/email', settings(ssl.port, true));
    const content = [
      '<p onclick="steal()">工资条已发放，<b>请查收</b></p>',
      '<script>alert(document.cookie)</script>',
      '<a href="javascript:alert(1)">点我</a> <a href="https://example.com/x">链接</a>',
      '<img src="x" onerror="alert(2)">',
      `<img src="data:image/png;base64,${PNG_1PX}" alt="logo">`,
      '<ul><li>一</li><li>二</li></ul>',
    ].join('');
    const arrived = ssl.next('staff.one@example.com');
    const res = await admin('POST', '/api/email', { subject: '2026年11月工资条通知', tos: ['staff.one@example.com', ' Staff.Two@example.com ', 'staff.one@example.com'], content });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await arrived;
    expect(mail.secure).toBe(true);
    expect(mail.to.sort()).toEqual(['Staff.Two@example.com', 'staff.one@example.com']);
    const { subject, html, parts } = readMail(mail.raw);
    expect(subject).toBe('2026年11月工资条通知');
    expect(html).toContain('工资条已发放');
    expect(html).toContain('<b>请查收</b>');
    expect(html).toContain('<li>二</li>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\bon[a-z]+=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toContain('data:image');
    const cid = /src="cid:([^"]+)"/.exec(html)?.[1];
    expect(cid).toBeTruthy();
    const image = parts.find((p) => p.headers.get('content-id') === `<${cid}>`);
    expect(image?.headers.get('content-type')).toMatch(/^image\/png/);
    expect(Buffer.from(image!.body, 'latin1').equals(Buffer.from(PNG_1PX, 'base64'))).toBe(true);
    // a text/plain part beside the HTML, from the sanitised HTML: no script, the link's address, list items (M10)
    const textPart = parts.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith('text/plain'));
    expect(textPart).toBeTruthy();
    const text = textPart!.headers.get('content-transfer-encoding')?.toLowerCase() === 'base64' ? Buffer.from(textPart!.body, 'latin1').toString('utf8') : textPart!.body;
    expect(text).toContain('工资条已发放，请查收');
    expect(text).toContain('链接 (https://example.com/x)');
    expect(text).toMatch(/- 一\r?\n- 二/);
    expect(text).not.toMatch(/<|alert|javascript/);

    const logs = (await admin('GET', '/api/email/logs', undefined, { query: { page: '0', size: '10' } })).json();
    expect(logs.totalElements).toBeGreaterThanOrEqual(1);
    expect(logs.content[0]).toMatchObject({ subject: '2026年11月工资条通知', status: 'SENT', recipientCount: 2, kind: 'tool', createBy: 'admin' });
  });

  it('sends over STARTTLS (SSL unticked) and logs a refused login as FAILED', async () => {
    await admin('PUT', '/api/email', settings(starttls.port, false));
    const arrived = starttls.next('tls@example.com');
    const res = await admin('POST', '/api/email', { subject: 'STARTTLS 测试', tos: ['tls@example.com'], content: '<p>正文</p>' });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await arrived;
    expect(mail.secure).toBe(true);
    expect(readMail(mail.raw).subject).toBe('STARTTLS 测试');

    await admin('PUT', '/api/email', settings(starttls.port, false, 'wrong-password'));
    const refused = await admin('POST', '/api/email', { subject: '会失败', tos: ['tls@example.com'], content: '<p>x</p>' });
    expect(refused.json().code).toBe('EMAIL_AUTH_FAILED');
    const logs = (await admin('GET', '/api/email/logs', undefined, { query: { status: 'FAILED' } })).json();
    expect(logs.content[0]).toMatchObject({ subject: '会失败', status: 'FAILED' });
    expect(logs.content[0].error).toContain('535');
    await admin('PUT', '/api/email', settings(starttls.port, false));
  });

  it('sends one message per recipient when asked, reporting a refused mailbox and delivering the rest', async () => {
    const first = starttls.next('one@example.com');
    const second = starttls.next('two@example.com');
    const res = await admin('POST', '/api/email', { subject: '逐个发送', tos: ['one@example.com', 'reject.me@example.com', 'two@example.com'], content: '<p>x</p>', separately: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sent: 2, failed: [{ to: 'reject.me@example.com' }] });
    expect(res.json().failed[0].reason).toContain('邮件服务器拒绝发送');
    for (const [mail, to] of [[await first, 'one@example.com'], [await second, 'two@example.com']] as const) {
      expect(mail.to).toEqual([to]);
      expect(/^To: (.*)$/m.exec(mail.raw)?.[1].trim()).toBe(to);
    }
    const logs = (await admin('GET', '/api/email/logs', undefined, { query: { blurry: '逐个发送' } })).json();
    expect(logs.content.map((l: { status: string }) => l.status).sort()).toEqual(['FAILED', 'SENT', 'SENT']);
    // one message to all: the refused mailbox is named, the others still get it
    const together = starttls.next('three@example.com');
    const both = await admin('POST', '/api/email', { subject: '一起发送', tos: ['three@example.com', 'reject.b@example.com'], content: '<p>x</p>' });
    expect(both.json()).toMatchObject({ sent: 1, failed: [{ to: 'reject.b@example.com' }] });
    expect((await together).to).toEqual(['three@example.com']);
    // every recipient refused: the reason is the answer, as its SMTP reply code (the server's text is not echoed)
    const none = await admin('POST', '/api/email', { subject: '全部拒收', tos: ['reject.a@example.com'], content: '<p>x</p>', separately: true });
    expect(none.json()).toMatchObject({ code: 'EMAIL_REJECTED', message: '邮件服务器拒绝发送：SMTP 550' });
  });

  it('checks the message by the spec rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ subject: ' ', tos: ['a@example.com'], content: '<p>x</p>' }, '标题不能为空'],
      [{ subject: 's', tos: [], content: '<p>x</p>' }, '请至少保留一位联系人'],
      [{ subject: 's', tos: ['a@example.com', ''], content: '<p>x</p>' }, '收件邮箱不能为空'],
      [{ subject: 's', tos: ['a@example.com', 'not-mail'], content: '<p>x</p>' }, '收件邮箱格式错误'],
      [{ subject: 's', tos: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`), content: '<p>x</p>' }, '收件人最多50个'],
      [{ subject: 's', tos: ['a@example.com'], content: '<p><br></p>' }, '邮件内容不能为空'],
      [{ subject: 's', tos: ['a@example.com'], content: `<img src="data:image/png;base64,${Buffer.from('<svg onload="x()"/>').toString('base64')}">` }, '邮件中的图片只能是 PNG、JPG、GIF 或 WebP'],
    ];
    for (const [body, message] of cases) {
      const res = await admin('POST', '/api/email', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('delivers the personal centre change-e-mail code through the configured server', async () => {
    const roleId = await idOf(t, 'sys_role', '普通员工');
    const id = await createUser(t, { username: 'mail_code_user', roleIds: [roleId] });
    const me = caller(t, await tokenFor(t, id));
    const arrived = starttls.next('new.address@example.com');
    const sent = await me('POST', '/api/code/resetEmail', { type: 'email', value: 'new.address@example.com' });
    expect(sent.statusCode, sent.body).toBe(200);
    const { subject, html } = readMail((await arrived).raw);
    expect(subject).toBe('邮箱验证码');
    const code = /(\d{6})/.exec(html.replace(/<[^>]+>/g, ' '))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const pk = t.app.ctx.keys.rsaPublicKeyPem;
    const changed = await me('POST', `/api/users/updateEmail/${code}`, { email: 'new.address@example.com', password: encryptLoginPassword(pk, FIXTURE_PASSWORD) });
    expect(changed.statusCode, changed.body).toBe(200);
    // the logging stand-in of the test harness was not used: the code went out by SMTP
    expect(t.mail.sent.some((m) => m.to.includes('new.address@example.com'))).toBe(false);
  });

  it('guards every route by EMAIL_* codes and never writes the password to the operation log', async () => {
    const editor = await userWithCodes(t, ['EMAIL_EDIT']);
    expect((await editor.call('GET', '/api/email')).json().pass).toBe('******');
    expect((await editor.call('POST', '/api/email', { subject: 's', tos: ['a@example.com'], content: '<p>x</p>' })).statusCode).toBe(403);
    const reader = await userWithCodes(t, ['EMAIL_SELECT']);
    expect((await reader.call('GET', '/api/email')).statusCode).toBe(200);
    expect((await reader.call('GET', '/api/email/logs')).statusCode).toBe(200);
    expect((await reader.call('PUT', '/api/email', settings(ssl.port, true))).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/email/test', settings(ssl.port, true))).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/email', { subject: 's', tos: ['a@example.com'], content: '<p>x</p>' })).statusCode).toBe(403);
    const nobody = await userWithCodes(t, []);
    expect((await nobody.call('GET', '/api/email')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/email' })).statusCode).toBe(401);

    const logs = await t.app.ctx.db.selectFrom('sys_log').select(['description', 'params']).execute();
    expect(logs.some((l) => l.description === '修改邮件配置')).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(STAND_IN_PASS);
    expect(JSON.stringify(logs)).not.toContain('wrong-password');
    expect(logLines.length).toBeGreaterThan(20);
    for (const secret of [STAND_IN_PASS, 'wrong-password', 'my-login-password']) expect(logLines.join('')).not.toContain(secret);
  });
});
