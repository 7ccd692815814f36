import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, Permission, useAuth } from './auth';
import { clearSession, setToken, setUser } from './session';

function loginAs(roles: string[], job = '人事专员') {
  setToken('t');
  setUser({ id: 1, username: 'u', job, roles });
}

function Probe() {
  const auth = useAuth();
  return (
    <div data-testid="probe">
      {auth.status}|{auth.isOrdinaryEmployee ? 'employee' : 'staff'}|{auth.permissions.join(',')}
    </div>
  );
}

afterEach(() => clearSession());

describe('<Permission>', () => {
  const ui = (
    <AuthProvider onInfoError={() => undefined}>
      <Permission codes={['USER_ALL', 'USER_CREATE']}>
        <button type="button">新增</button>
      </Permission>
      <Permission codes={['ROLES_EDIT']} fallback={<span>无权限</span>}>
        <button type="button">保存</button>
      </Permission>
    </AuthProvider>
  );

  it('renders children when the user holds any listed code', () => {
    loginAs(['USER_CREATE']);
    render(ui);
    expect(screen.getByRole('button', { name: '新增' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(screen.getByText('无权限')).toBeTruthy();
  });

  it('renders nothing when the user holds none of the codes', () => {
    loginAs(['ACCENTRY_ALL']);
    const { container } = render(
      <AuthProvider onInfoError={() => undefined}>
        <Permission codes={['USER_CREATE']}>
          <button type="button">新增</button>
        </Permission>
      </AuthProvider>,
    );
    expect(container.innerHTML).toBe('');
  });

  it('lets ADMIN pass every check', () => {
    loginAs(['ADMIN']);
    render(ui);
    expect(screen.getByRole('button', { name: '新增' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '保存' })).toBeTruthy();
  });

  it('hides everything when logged out', () => {
    render(ui);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('throws without a list of codes', () => {
    loginAs(['ADMIN']);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <AuthProvider onInfoError={() => undefined}>
          <Permission codes={[]}>x</Permission>
        </AuthProvider>,
      ),
    ).toThrow(/permission codes/);
    spy.mockRestore();
  });
});

describe('useAuth', () => {
  it('gives the session, the default role and the ordinary-employee flag', () => {
    setToken('t');
    setUser({ id: 3, username: 'e', job: '普通员工', roles: [] });
    render(
      <AuthProvider onInfoError={() => undefined}>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('ready|employee|ROLE_SYSTEM_DEFAULT');
  });
});
