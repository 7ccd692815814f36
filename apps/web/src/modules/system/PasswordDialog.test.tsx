import { webcrypto } from 'node:crypto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken } from '../../app/session';
import { type FakeCall, installFakeFetch, loginAs, renderWithApp, setupI18n } from '../../crud/testUtils';
import { EmailDialog } from '../user/EmailDialog';
import { PasswordDialog } from '../user/PasswordDialog';

let publicPem = '';
let privateKey: CryptoKey;
let calls: FakeCall[];

async function decrypt(b64: string): Promise<string> {
  const plain = await webcrypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey as never, Buffer.from(b64, 'base64'));
  return new TextDecoder().decode(plain);
}

beforeAll(async () => {
  await setupI18n();
  const pair = await webcrypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  privateKey = pair.privateKey as unknown as CryptoKey;
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', pair.publicKey)).toString('base64');
  publicPem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
});

beforeEach(() => {
  calls = installFakeFetch((call) => {
    if (call.path === '/auth/publicKey') return { body: { publicKey: publicPem } };
    if (call.path === '/api/users/updatePass') return { body: {} };
    if (call.path === '/auth/logout') return { body: {} };
    if (call.path === '/api/code/resetEmail') return { body: {} };
    return undefined;
  });
  loginAs(['ROLE_SYSTEM_DEFAULT'], { email: 'me@example.com' });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;

describe('change password', { timeout: 30_000 }, () => {
  it('applies the spec rules with the spec messages', async () => {
    renderWithApp(<PasswordDialog open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入旧密码')).toBeTruthy();
    expect(within(dialog).getByText('请输入新密码')).toBeTruthy();
    expect(within(dialog).getByText('请再次输入密码')).toBeTruthy();

    fireEvent.change(field(dialog, '新密码'), { target: { value: '12345' } });
    expect(await within(dialog).findByText('长度在 6 到 20 个字符')).toBeTruthy();
    fireEvent.change(field(dialog, '新密码'), { target: { value: 'a'.repeat(21) } });
    expect(await within(dialog).findByText('长度在 6 到 20 个字符')).toBeTruthy();
    fireEvent.change(field(dialog, '新密码'), { target: { value: 'abcdef' } });
    await waitFor(() => expect(within(dialog).queryByText('长度在 6 到 20 个字符')).toBeNull());

    fireEvent.change(field(dialog, '确认密码'), { target: { value: 'abcdeg' } });
    expect(await within(dialog).findByText('两次输入的密码不一致')).toBeTruthy();
    fireEvent.change(field(dialog, '确认密码'), { target: { value: 'abcdef' } });
    await waitFor(() => expect(within(dialog).queryByText('两次输入的密码不一致')).toBeNull());
    expect(calls.some((c) => c.path === '/api/users/updatePass')).toBe(false);
  });

  it('sends both passwords RSA-encrypted, then logs out after 1.5 s', async () => {
    renderWithApp(<PasswordDialog open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(field(dialog, '旧密码'), { target: { value: 'old-secret' } });
    fireEvent.change(field(dialog, '新密码'), { target: { value: 'new-secret' } });
    fireEvent.change(field(dialog, '确认密码'), { target: { value: 'new-secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/updatePass')).toBe(true), { timeout: 10_000 });
    const body = calls.find((c) => c.path === '/api/users/updatePass')!.body as { oldPass: string; newPass: string };
    expect(body.oldPass).not.toBe('old-secret');
    expect(await decrypt(body.oldPass)).toBe('old-secret');
    expect(await decrypt(body.newPass)).toBe('new-secret');
    expect(await screen.findByText('密码修改成功，请重新登录')).toBeTruthy();
    expect(getToken()).toBe('test-token');
    await waitFor(() => expect(getToken()).toBeNull(), { timeout: 3000 });
    // the change ended every session on the server: no logout request that could only be refused (401)
    expect(calls.some((c) => c.path === '/auth/logout')).toBe(false);
  });
});

describe('change email', { timeout: 30_000 }, () => {
  it('checks the new address and walks the send-code states', async () => {
    renderWithApp(<EmailDialog open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('新邮箱不能为空')).toBeTruthy();
    expect(within(dialog).getByText('验证码不能为空')).toBeTruthy();
    expect(within(dialog).getByText('当前密码不能为空')).toBeTruthy();

    const email = within(dialog).getByTestId('email-new');
    const send = within(dialog).getByTestId('email-send-code');
    fireEvent.change(email, { target: { value: 'ME@example.com' } });
    expect(await within(dialog).findByText('新邮箱不能与旧邮箱相同')).toBeTruthy();
    fireEvent.click(send);
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    expect(await within(dialog).findByText('邮箱格式错误')).toBeTruthy();
    // nothing is sent for the current address
    expect(calls.some((c) => c.path === '/api/code/resetEmail')).toBe(false);

    fireEvent.change(email, { target: { value: 'new@example.com' } });
    expect(send.textContent?.replace(/\s/g, '')).toBe('获取验证码');
    fireEvent.click(send);
    await waitFor(() => expect(send.textContent).toContain('60秒后重新发送'));
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(calls.find((c) => c.path === '/api/code/resetEmail')?.body).toEqual({ type: 'email', value: 'new@example.com' });
    expect(await screen.findByText('发送成功，验证码有效期5分钟')).toBeTruthy();
  });
});
