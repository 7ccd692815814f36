/** Client errors of this browser session (window errors, unhandled rejections, crashed screens) for the navbar badge. */
export interface ClientError {
  message: string;
  stack?: string;
  url: string;
  time: string;
}

const MAX_ENTRIES = 100;
let entries: ClientError[] = [];
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** Record an error (newest first). */
export function recordError(err: unknown): void {
  const e = err instanceof Error ? err : new Error(typeof err === 'string' ? err : safeString(err));
  entries = [{ message: e.message || String(e), stack: e.stack, url: window.location.href, time: new Date().toISOString() }, ...entries].slice(0, MAX_ENTRIES);
  emit();
}

function safeString(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

export function getErrors(): ClientError[] {
  return entries;
}

export function clearErrors(): void {
  entries = [];
  emit();
}

export function subscribeErrors(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

let installed = false;

/** Listen to window errors and unhandled promise rejections (once). */
export function installErrorCapture(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (ev) => {
    // resource load errors have no `error`; keep only script errors
    if (ev.error || ev.message) recordError(ev.error ?? ev.message);
  });
  window.addEventListener('unhandledrejection', (ev) => {
    const reason = ev.reason;
    // failed API calls were already shown to the user by the request layer
    if (reason && typeof reason === 'object' && (reason as { name?: string }).name === 'RequestError') return;
    recordError(reason);
  });
}
