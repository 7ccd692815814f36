import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadable } from './loadable';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Hello({ name }: { name: string }) {
  return <span data-testid="hello">hello {name}</span>;
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null; key: number }> {
  state = { error: null as Error | null, key: 0 };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <button type="button" onClick={() => this.setState((s) => ({ error: null, key: s.key + 1 }))}>
          failed: {this.state.error.message}
        </button>
      );
    }
    return <div key={this.state.key}>{this.props.children}</div>;
  }
}

/** A loadable whose module arrives when the test resolves `chunk`; `calls()` counts the loads. */
function pageOnHold() {
  const chunk = deferred<{ default: typeof Hello }>();
  let calls = 0;
  const page = loadable(
    () => {
      calls++;
      return chunk.promise;
    },
    () => <span data-testid="fallback">loading</span>,
  );
  return { page, chunk, calls: () => calls };
}

afterEach(cleanup);

describe('loadable', () => {
  it('shows the fallback, then the module once it arrives, with the props', async () => {
    const { page, chunk, calls } = pageOnHold();
    render(<page.Component name="张三" />);
    expect(screen.getByTestId('fallback')).toBeTruthy();
    await act(async () => chunk.resolve({ default: Hello }));
    expect(screen.getByTestId('hello').textContent).toBe('hello 张三');
    await expect(page.load()).resolves.toBe(Hello);
    expect(calls()).toBe(1);
  });

  it('renders at once, without the fallback, when loaded ahead with load()', async () => {
    const page = loadable(
      () => Promise.resolve({ default: Hello }),
      () => <span data-testid="fallback">loading</span>,
    );
    await expect(page.load()).resolves.toBe(Hello);
    render(<page.Component name="李四" />);
    expect(screen.queryByTestId('fallback')).toBeNull();
    expect(screen.getByTestId('hello').textContent).toBe('hello 李四');
  });

  it('shares one load between load() and rendering', async () => {
    const { page, chunk, calls } = pageOnHold();
    const ahead = page.load();
    render(<page.Component name="王五" />);
    await act(async () => chunk.resolve({ default: Hello }));
    await ahead;
    expect(calls()).toBe(1);
    expect(screen.getByTestId('hello')).toBeTruthy();
  });

  it('throws a failed load to the error boundary and loads again on retry', async () => {
    let attempt = 0;
    const page = loadable<{ name: string }>(
      () => (++attempt === 1 ? Promise.reject(new Error('chunk 404')) : Promise.resolve({ default: Hello })),
      () => <span data-testid="fallback">loading</span>,
    );
    render(
      <Boundary>
        <page.Component name="赵六" />
      </Boundary>,
    );
    const retry = await screen.findByRole('button');
    expect(retry.textContent).toContain('chunk 404');
    await act(async () => retry.click());
    expect((await screen.findByTestId('hello')).textContent).toBe('hello 赵六');
    expect(attempt).toBe(2);
  });
});
