import { accEntryResource } from '@app/shared/resources/hrRecords';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import ResourcePage from './ResourcePage';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

let calls: FakeCall[];

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  localStorage.clear();
  calls = installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/accEntry' && call.method === 'GET') return page([{ id: 1, name: '张三', company: '甲公司' }], 1);
    if (call.path === '/api/accEntry' && call.method === 'POST') return { status: 201, body: { id: 2, ...(call.body as object) } };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HR record dialog (findings W6)', { timeout: 30_000 }, () => {
  it('refuses a completely blank row on both 姓名 and 身份证号; either one is enough', async () => {
    loginAs(['ACCENTRY_ALL']);
    renderWithApp(<ResourcePage resource={accEntryResource} />);
    await screen.findByText('张三');
    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(within(dialog).getAllByText('请至少填写姓名或身份证号')).toHaveLength(2));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('身份证号'), { target: { value: '110101199003070011' } });
    // the other field's message goes away with it
    await waitFor(() => expect(within(dialog).queryByText('请至少填写姓名或身份证号')).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ idCard: '110101199003070011' });
  });
});
