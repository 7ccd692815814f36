import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMail, STAND_IN_PASS, STAND_IN_USER, type SmtpStandIn, startSmtpStandIn } from '../../server/test/email-fixtures';
import { activeScreen, expectNotice, type Harness, screenshot, startLoggedIn } from './harness';

/**
 * 系统工具 › 邮件工具 and 支付宝工具 in a real browser: the SMTP settings are entered through the form and
 * point at an SMTP stand-in started here; a message written in the rich-text editor to two recipients arrives
 * there (script removed, bold kept); the payment tool opens with its tabs and refuses an amount over 5000.
 */

let h: Harness;
let smtp: SmtpStandIn;
let page: Page;

beforeAll(async () => {
  // STARTTLS (the server requires TLS before it sends a password; the harness accepts the stand-in's self-signed certificate)
  smtp = await startSmtpStandIn('starttls');
  ({ h, page } = await startLoggedIn({}));
}, 120_000);
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('integrations screens', () => {
  it('configures SMTP through the form, tests the connection and sends an e-mail that arrives', async () => {
    await page.goto('/tools/email');
    const s = activeScreen(page);
    await s.getByTestId('email-tool').waitFor({ state: 'visible', timeout: 15_000 });
    // 发送 is the default tab
    await expect.poll(() => s.locator('.ant-tabs-tab-active').textContent()).toBe('发送');
    await s.getByRole('tab', { name: '配置' }).click();
    const form = s.getByTestId('email-settings');
    await form.getByTestId('email-fromUser').fill(STAND_IN_USER);
    await form.getByTestId('email-user').fill(STAND_IN_USER);
    await form.getByTestId('email-pass').fill(STAND_IN_PASS);
    await form.getByTestId('email-host').fill('127.0.0.1');
    await form.getByTestId('email-port').fill(String(smtp.port));
    await form.getByTestId('email-ssl').click(); // off: STARTTLS on the plain port
    await form.getByTestId('email-test').click();
    await expectNotice(page, '连接成功', 15_000);
    await form.getByTestId('email-save').click();
    await expectNotice(page, '修改成功', 15_000);
    await expect.poll(async () => form.getByTestId('email-pass').inputValue()).toBe('******');
    await screenshot(page, 'integrations-email-config');

    await s.getByRole('tab', { name: '发送', exact: true }).click();
    const send = s.getByTestId('email-send-form');
    await send.getByTestId('email-subject').fill('十一月工资条已发放');
    await send.getByTestId('email-to-0').fill('staff.a@example.com');
    await send.getByTestId('email-to-add').click();
    await send.getByTestId('email-to-1').fill('not-an-address');
    await send.getByTestId('email-send').click();
    await expect.poll(() => send.locator('.ant-form-item-explain-error', { hasText: '收件邮箱格式错误' }).count()).toBeGreaterThan(0);
    await send.getByTestId('email-to-1').fill('staff.b@example.com');
    const editor = send.getByTestId('email-content');
    await editor.click();
    await page.keyboard.type('各位好，');
    await send.getByTestId('rte-bold').click();
    await page.keyboard.type('工资已到账');
    // a script pasted into the body's HTML is removed by the server
    await editor.evaluate((el) => {
      el.insertAdjacentHTML('beforeend', '<script>alert(1)</script><p onclick="x()">请查收</p>');
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await screenshot(page, 'integrations-email-send');
    // 逐个发送 is on by default: each recipient gets a message of their own
    const toA = smtp.next('staff.a@example.com');
    const toB = smtp.next('staff.b@example.com');
    await send.getByTestId('email-send').click();
    await expectNotice(page, '发送成功', 15_000);
    const [mailA, mail] = [await toA, await toB];
    expect(mailA.to).toEqual(['staff.a@example.com']);
    expect(mail.to).toEqual(['staff.b@example.com']);
    const { subject, html } = readMail(mail.raw);
    expect(subject).toBe('十一月工资条已发放');
    // typed text, then the bold part where the caret was
    expect(html).toMatch(/各位好，<(b|strong)>工资已到账<\/(b|strong)>/);
    expect(html).toContain('请查收');
    expect(html).not.toMatch(/<script|onclick/i);

    await s.getByRole('tab', { name: '发送记录' }).click();
    await expect.poll(() => s.getByTestId('email-logs').locator('tbody tr', { hasText: '十一月工资条已发放' }).count(), { timeout: 10_000 }).toBe(2);
    await screenshot(page, 'integrations-email-logs');
  }, 60_000);

  it('opens the payment tool with its three tabs and checks the test amount', async () => {
    await page.goto('/tools/aliPay');
    const s = activeScreen(page);
    await s.getByTestId('alipay-tool').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['参数配置', '测试', '使用说明']);
    await expect.poll(() => s.locator('.ant-tabs-tab-active').textContent()).toBe('测试');
    const form = s.getByTestId('alipay-pay-form');
    await form.getByTestId('alipay-amount').fill('5000.01');
    await form.getByTestId('alipay-pay').click();
    await expect.poll(() => form.locator('.ant-form-item-explain-error').allInnerTexts()).toContain('测试金额必须大于0且不超过5000元');
    await screenshot(page, 'integrations-alipay-test');
    await s.getByRole('tab', { name: '参数配置' }).click();
    await s.getByTestId('alipay-settings').waitFor({ state: 'visible' });
    await s.getByTestId('alipay-save').click();
    await expect.poll(() => s.locator('.ant-form-item-explain-error').allInnerTexts()).toContain('商户私钥不能为空');
    await screenshot(page, 'integrations-alipay-config');
    expect(h.errorsOf(page).page).toEqual([]);
    // the e-mail test's injected onclick is refused by the page's CSP (as it should be): that line only
    expect(h.errorsOf(page).console.filter((e) => !/favicon|status of 4\d\d|script-src-attr/.test(e))).toEqual([]);
  }, 45_000);
});
