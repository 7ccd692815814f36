import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { type ReactNode, Suspense, lazy } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { startEagerQuery, useEagerQuery } from './prefetch';

/** A lazy sibling (like a screen's chunk) holding the first commit back until `release()`. */
function gate() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  const Gate = lazy(() => promise.then(() => ({ default: () => null })));
  return { Gate, release: () => act(async () => release()) };
}

function Probe({ load, staleTime = 0 }: { load: () => Promise<string>; staleTime?: number }) {
  const q = useEagerQuery<string>({ queryKey: ['probe'], queryFn: load, staleTime });
  return <div data-testid="probe">{q.isError ? 'failed' : (q.data ?? 'loading')}</div>;
}

function counting(answer: () => Promise<string>) {
  const fn = () => {
    fn.calls++;
    return answer();
  };
  fn.calls = 0;
  return fn;
}

const tick = () => act(async () => new Promise((r) => setTimeout(r, 0)));

function renderIn(client: QueryClient, ui: ReactNode) {
  return render(
    <QueryClientProvider client={client}>
      <Suspense fallback="fallback">{ui}</Suspense>
    </QueryClientProvider>,
  );
}

describe('useEagerQuery', () => {
  afterEach(cleanup);

  it('requests during the first render, and once, when the answer comes before the first commit', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = counting(async () => 'rows');
    const { Gate, release } = gate();
    renderIn(
      client,
      <>
        <Probe load={load} />
        <Gate />
      </>,
    );
    expect(load.calls).toBe(1); // nothing committed yet
    await tick(); // the answer is in before the commit
    await release();
    expect((await screen.findByTestId('probe')).textContent).toBe('rows');
    await tick();
    expect(load.calls).toBe(1);
  });

  it('still refetches data cached before the component rendered (staleTime 0)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = counting(async () => `rows ${load.calls}`);
    const first = renderIn(client, <Probe load={load} />);
    expect((await screen.findByText('rows 1')).textContent).toBe('rows 1');
    first.unmount();
    renderIn(client, <Probe load={load} />);
    expect((await screen.findByText('rows 2')).textContent).toBe('rows 2');
    expect(load.calls).toBe(2);
  });

  it('does not retry at mount a failure of its own early request, but retries an older one', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = counting(async () => {
      throw new Error('boom');
    });
    const { Gate, release } = gate();
    const first = renderIn(
      client,
      <>
        <Probe load={load} />
        <Gate />
      </>,
    );
    await tick(); // failed before the commit
    await release();
    expect((await screen.findByTestId('probe')).textContent).toBe('failed');
    await tick();
    expect(load.calls).toBe(1);
    first.unmount();
    renderIn(client, <Probe load={load} />);
    await tick();
    expect(load.calls).toBe(2);
  });

  it('takes a request started before it rendered (startEagerQuery) as its own: one request, its answer shown', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer!: (v: string) => void;
    const load = counting(() => new Promise<string>((resolve) => (answer = resolve)));
    startEagerQuery(client, { queryKey: ['probe'], queryFn: load });
    expect(load.calls).toBe(1);
    renderIn(client, <Probe load={load} />); // renders while the request is on its way
    expect(screen.getByTestId('probe').textContent).toBe('loading');
    await act(async () => answer('early rows'));
    expect((await screen.findByTestId('probe')).textContent).toBe('early rows');
    await tick();
    expect(load.calls).toBe(1);
  });

  it('does not ask again at mount for what such a request already answered (staleTime 0)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = counting(async () => `rows ${load.calls}`);
    startEagerQuery(client, { queryKey: ['probe'], queryFn: load });
    await tick(); // answered before the screen renders
    renderIn(client, <Probe load={load} />);
    expect(screen.getByTestId('probe').textContent).toBe('rows 1');
    await tick();
    expect(load.calls).toBe(1);
  });

  it('does not start a request for a disabled query or one already cached', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = counting(async () => 'rows');
    startEagerQuery(client, { queryKey: ['off'], queryFn: load, enabled: false });
    expect(load.calls).toBe(0);
    client.setQueryData(['cached'], 'old');
    startEagerQuery(client, { queryKey: ['cached'], queryFn: load });
    expect(load.calls).toBe(0);
  });
});
