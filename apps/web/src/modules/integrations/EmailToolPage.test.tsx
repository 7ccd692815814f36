import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import AliPayToolPage from './AliPayToolPage';
import EmailToolPage from './EmailToolPage';

/**
 * The e-mail tool's send form by the spec §5 rules (subject, each recipient non-empty and well formed, at least
 * one kept) and what it posts; the tabs a user sees follow the EMAIL_* / ALIPAY_* codes.
 */

let calls: FakeCall[];

beforeAll(async () => {
  await setupI18n();
});
beforeEach(() => {
  calls = installFakeFetch((call) => {
    if (call.method === 'POST' && call.path === '/api/email') return { body: { messageId: null, sent: 1, failed: [] } };
    if (call.path === '/api/email') return { body: { id: 1, fromUser: 'hr@example.com', user: 'hr@example.com', pass: '******', host: 'smtp.qq.com', port: 465, sslEnable: true, updateTime: null } };
    if (call.path === '/api/email/logs' || call.path === '/api/aliPay/orders') return { body: page([]) };
    return undefined;
  });
});
afterEach(() => cleanup());

const errorsShown = () => Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent);

describe('e-mail tool', () => {
  it('opens on 发送 and checks subject and recipients before posting', async () => {
    loginAs(['EMAIL_ALL']);
    renderWithApp(<EmailToolPage />);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['配置', '发送', '发送记录', '使用说明']);
    expect(tabs.find((t) => t.getAttribute('aria-selected') === 'true')?.textContent).toBe('发送');
    const form = await screen.findByTestId('email-send-form');
    fireEvent.click(within(form).getByTestId('email-send'));
    await waitFor(() => expect(errorsShown()).toEqual(expect.arrayContaining(['标题不能为空', '收件邮箱不能为空', '邮件内容不能为空'])));

    // the last recipient cannot be removed
    fireEvent.click(within(form).getByTestId('email-to-remove-0'));
    expect(within(form).getByTestId('email-to-0')).toBeTruthy();

    fireEvent.change(within(form).getByTestId('email-subject'), { target: { value: '通知' } });
    fireEvent.change(within(form).getByTestId('email-to-0'), { target: { value: 'not-mail' } });
    await waitFor(() => expect(errorsShown()).toContain('收件邮箱格式错误'));
    fireEvent.change(within(form).getByTestId('email-to-0'), { target: { value: ' a@example.com ' } });
    const editor = within(form).getByTestId('email-content');
    editor.innerHTML = '<p>正文</p>';
    fireEvent.input(editor);
    fireEvent.click(within(form).getByTestId('email-send'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/email')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/email');
    expect(post?.body).toEqual({ subject: '通知', tos: ['a@example.com'], content: '<p>正文</p>', separately: true });
  });

  it('shows only 发送 and 使用说明 to a user who may send but not see the settings', async () => {
    loginAs(['EMAIL_SEND']);
    renderWithApp(<EmailToolPage />);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['发送', '使用说明']);
    expect(calls.some((c) => c.path === '/api/email' && c.method === 'GET')).toBe(false);
  });
});

describe('payment tool', () => {
  it('has the three tabs, 测试 active, and refuses an amount over 5000', async () => {
    loginAs(['ALIPAY_ALL']);
    renderWithApp(<AliPayToolPage />);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['参数配置', '测试', '使用说明']);
    expect(tabs.find((t) => t.getAttribute('aria-selected') === 'true')?.textContent).toBe('测试');
    const form = await screen.findByTestId('alipay-pay-form');
    fireEvent.change(within(form).getByTestId('alipay-amount'), { target: { value: '5000.01' } });
    fireEvent.click(within(form).getByTestId('alipay-pay'));
    await waitFor(() => expect(errorsShown()).toContain('测试金额必须大于0且不超过5000元'));
    expect(calls.some((c) => c.path.startsWith('/api/aliPay/toPay'))).toBe(false);
  });
});
