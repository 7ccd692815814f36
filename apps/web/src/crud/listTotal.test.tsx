import { defineResource } from '@app/shared/resource';
import { cleanup, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n } from '../app/i18n';
import { isTotalEstimated, listTotalText } from './listTotal';
import ResourcePage from './ResourcePage';
import { installFakeFetch, loginAs, renderWithApp, setupI18n } from './testUtils';

/**
 * Issue 27 item 2 (web side): a list whose total the server only estimated (`totalEstimated: true`, PostgreSQL at
 * 10,000 matching rows or more) shows it as "约 N 条"; a counted total stays "共 N 条".
 */

const gadgetDef = defineResource({
  name: 'gadget',
  table: 'gadget',
  permission: 'GADGET',
  label: '器件',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', maxLength: 20 },
  ],
});

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

afterAll(async () => {
  await changeLanguage('zh');
});

describe('the total of a list', () => {
  it('is exact or approximate in every language', async () => {
    const say = (count: number, estimated: boolean) => listTotalText(i18n.t, count, estimated);
    await changeLanguage('zh');
    expect(say(25, false)).toBe('共 25 条');
    expect(say(123456, true)).toBe('约 123456 条');
    await changeLanguage('en');
    expect(say(25, false)).toBe('25 records');
    expect(say(123456, true)).toBe('About 123456 records');
    await changeLanguage('es');
    expect(say(123456, true)).toBe('Aproximadamente 123456 registros');
    await changeLanguage('ja');
    expect(say(123456, true)).toBe('約 123456 件');
    await changeLanguage('zh');
  });

  it('is estimated only when the answer says so', () => {
    expect(isTotalEstimated({ content: [], totalElements: 20000, totalEstimated: true })).toBe(true);
    expect(isTotalEstimated({ content: [], totalElements: 20 })).toBe(false);
    expect(isTotalEstimated([])).toBe(false);
    expect(isTotalEstimated(undefined)).toBe(false);
  });

  it.each([
    [{ totalElements: 123456, totalEstimated: true }, '约 123456 条'],
    [{ totalElements: 3 }, '共 3 条'],
  ])('shows %o as %s under a generic list', { timeout: 30_000 }, async (answer, text) => {
    installFakeFetch((call) => (call.path === '/api/gadget' ? { body: { content: [{ id: 1, name: '器件一' }], ...answer } } : undefined));
    loginAs(['ADMIN']);
    renderWithApp(<ResourcePage resource={gadgetDef} />);
    expect(await screen.findByText('器件一', {}, { timeout: 10_000 })).toBeTruthy();
    expect(document.querySelector('.ant-pagination-total-text')?.textContent).toBe(text);
  });
});
