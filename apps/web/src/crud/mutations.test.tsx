import { defineResource } from '@app/shared/resource';
import { useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../app/request';
import ResourcePage from './ResourcePage';
import { resourceQueryKeys, useApiMutation, useResourceMutation } from './mutations';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';
import { useResourceList } from './useResourceList';

/**
 * The write layer: a create or delete refreshes the lists of its resource (and the queries built on it), a
 * refused write shows the server's message and leaves the lists alone, and the server's field errors land on
 * the form's fields.
 */

const gadget = defineResource({
  name: 'gadget',
  table: 'gadget',
  permission: 'GADGET',
  label: '器件',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 20 },
  ],
});

let calls: FakeCall[];
let rows: { id: number; name: string }[];
let summaryVersion: number;
/** The next POST /api/gadget answers this status and body instead of creating. */
let refuseCreate: { status: number; body: unknown } | null;

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/gadget');
const summaryCalls = () => calls.filter((c) => c.path === '/api/gadget/summary');

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  rows = [
    { id: 1, name: '甲' },
    { id: 2, name: '乙' },
  ];
  summaryVersion = 0;
  refuseCreate = null;
  calls = installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/gadget/summary') return { body: { version: summaryVersion } };
    if (call.path === '/api/gadget' && call.method === 'GET') return page([...rows].reverse());
    if (call.path === '/api/gadget' && call.method === 'POST') {
      if (refuseCreate) return refuseCreate;
      const created = { id: rows.length + 10, name: String((call.body as { name: string }).name) };
      rows.push(created);
      summaryVersion += 1;
      return { status: 201, body: created };
    }
    if (call.path.startsWith('/api/gadget/') && call.method === 'DELETE') {
      const id = Number(call.path.split('/').pop());
      rows = rows.filter((r) => r.id !== id);
      return { body: {} };
    }
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A list of gadgets, a query that is not a list (refreshed only when named), and two writes through the layer. */
function Harness({ changed = true }: { changed?: boolean }) {
  const list = useResourceList(gadget);
  const summary = useQuery({ queryKey: ['gadgetSummary'], queryFn: () => api.get<{ version: number }>('/api/gadget/summary') });
  const create = useResourceMutation<{ id: number }, string>(gadget, {
    mutationFn: (name) => api.post('/api/gadget', { name }),
    alsoInvalidate: [['gadgetSummary']],
    changed: () => changed,
    success: '添加成功',
  });
  const remove = useResourceMutation<unknown, number>(gadget, { mutationFn: (id) => api.del(`/api/gadget/${id}`), success: '删除成功' });
  return (
    <div>
      <ul data-testid="rows">
        {list.rows.map((r) => (
          <li key={String(r.id)}>
            {String(r.name)}
            <Button onClick={() => remove.mutate(Number(r.id))} data-testid={`del-${String(r.id)}`}>
              x
            </Button>
          </li>
        ))}
      </ul>
      <span data-testid="summary">v{summary.data?.version ?? '-'}</span>
      <Button onClick={() => create.mutate('丙')} data-testid="create">
        +
      </Button>
    </div>
  );
}

describe('useResourceMutation', { timeout: 30_000 }, () => {
  it('refreshes the resource list and the named queries after a create, and the list after a delete', async () => {
    loginAs(['ADMIN']);
    renderWithApp(<Harness />);
    expect(await screen.findByText('甲')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toBe('v0'));
    const before = listCalls().length;

    fireEvent.click(screen.getByTestId('create'));
    expect(await screen.findByText('丙')).toBeTruthy();
    expect(await screen.findByText('添加成功')).toBeTruthy();
    expect(listCalls().length).toBe(before + 1);
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toBe('v1'));
    expect(summaryCalls().length).toBe(2);

    fireEvent.click(screen.getByTestId('del-1'));
    await waitFor(() => expect(screen.queryByText('甲')).toBeNull());
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(listCalls().length).toBe(before + 2);
    // a delete names only the resource: the other query is left alone
    expect(summaryCalls().length).toBe(2);
  });

  it('refreshes nothing when the answer says nothing changed', async () => {
    loginAs(['ADMIN']);
    renderWithApp(<Harness changed={false} />);
    await screen.findByText('甲');
    const before = listCalls().length;
    fireEvent.click(screen.getByTestId('create'));
    expect(await screen.findByText('添加成功')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(listCalls().length).toBe(before);
    expect(screen.queryByText('丙')).toBeNull();
  });

  it('shows the message of a 409 and does not refresh', async () => {
    refuseCreate = { status: 409, body: { status: 409, code: 'DUPLICATE', message: '名称“丙”已存在' } };
    loginAs(['ADMIN']);
    renderWithApp(<Harness />);
    await screen.findByText('甲');
    const before = listCalls().length;
    fireEvent.click(screen.getByTestId('create'));
    expect(await screen.findByText('名称“丙”已存在')).toBeTruthy();
    expect(screen.queryByText('添加成功')).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(listCalls().length).toBe(before);
  });

  it('names the dependent queries of a resource', () => {
    const keys = resourceQueryKeys('accountsSalary').map((k) => JSON.stringify(k));
    expect(keys).toEqual(
      expect.arrayContaining([
        JSON.stringify(['crud', '/api/accountsSalary']),
        JSON.stringify(['ref', 'accountsSalary']),
        JSON.stringify(['accountsSalarySummary']),
        JSON.stringify(['accountsConfirmLog']),
        JSON.stringify(['crud', '/api/acPayslip']),
      ]),
    );
    expect(resourceQueryKeys('dictDetail').map((k) => JSON.stringify(k))).toContain(JSON.stringify(['dicts']));
  });
});

/** A plain form saved through useApiMutation with `form`: the server's field errors go onto its fields. */
function FormHarness() {
  const [form] = Form.useForm();
  const save = useApiMutation<unknown, { name: string }>({ mutationFn: (v) => api.post('/api/gadget', v), form, success: '添加成功' });
  return (
    <Form form={form} onFinish={(v) => save.mutate(v)}>
      <Form.Item name="name" label="名称">
        <Input data-testid="name" />
      </Form.Item>
      <Button htmlType="submit" data-testid="submit">
        ok
      </Button>
    </Form>
  );
}

describe('server field errors', { timeout: 30_000 }, () => {
  it('reach the form of useApiMutation', async () => {
    refuseCreate = { status: 400, body: { status: 400, message: '名称不能包含空格', fieldErrors: { name: '名称不能包含空格', other: '不在表单上' } } };
    loginAs(['ADMIN']);
    renderWithApp(<FormHarness />);
    fireEvent.change(screen.getByTestId('name'), { target: { value: 'a b' } });
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('名称不能包含空格'));
    expect(screen.queryByText('不在表单上')).toBeNull();
  });

  it('reach the add dialog of the generic page, which stays open; a clean save notifies and refreshes the list', async () => {
    refuseCreate = { status: 409, body: { status: 409, message: '名称已存在', fieldErrors: { name: '名称已存在' } } };
    loginAs(['GADGET_ALL']);
    renderWithApp(<ResourcePage resource={gadget} />);
    await screen.findByText('甲');
    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '甲' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-explain-error')?.textContent).toBe('名称已存在'));
    // the request layer's notice carries the message too
    expect(document.querySelector('.ant-notification')?.textContent).toContain('名称已存在');
    expect(screen.getByRole('dialog')).toBeTruthy();

    refuseCreate = null;
    const before = listCalls().length;
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '丁' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('丁')).toBeTruthy();
    expect(listCalls().length).toBeGreaterThan(before);
    expect(await screen.findByText('添加成功')).toBeTruthy();
  });
});
