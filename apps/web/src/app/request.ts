import { feedback, NOTIFY_SECONDS } from './feedback';
import { currentLanguage, i18n } from './i18n';
import { authHeaders, getUser, isOrdinaryEmployee, removeToken } from './session';

/**
 * The HTTP layer over fetch: bearer token, query strings, JSON bodies, timeouts and the global error handling
 * of spec §8 (every failure also rejects the promise so callers can stop their loading state).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RequestOptions {
  url: string;
  method?: HttpMethod | Lowercase<HttpMethod>;
  /** Query parameters; arrays repeat the name (sort=a,asc&sort=b,desc); null/undefined/'' are skipped. */
  params?: Record<string, unknown>;
  /** Body: FormData and Blob are sent as they are, anything else as JSON. */
  data?: unknown;
  responseType?: 'json' | 'blob';
  /** Milliseconds; default 1,200,000 (20 min). */
  timeout?: number;
  headers?: Record<string, string>;
  /** Skip the global error UI (no notification, no 401 dialog, no 403 redirect); the promise still rejects. */
  silent?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 1_200_000;

export type RequestErrorKind = 'timeout' | 'network' | 'http';

/** Why a request failed: timeout, network, or an HTTP status with the server's error body. */
export class RequestError extends Error {
  readonly kind: RequestErrorKind;
  readonly status: number;
  readonly code?: string;
  readonly fieldErrors?: Record<string, string>;
  readonly body?: unknown;
  constructor(kind: RequestErrorKind, message: string, status = 0, body?: unknown) {
    super(message);
    this.name = 'RequestError';
    this.kind = kind;
    this.status = status;
    this.body = body;
    if (body && typeof body === 'object') {
      const b = body as { code?: unknown; fieldErrors?: unknown };
      if (typeof b.code === 'string') this.code = b.code;
      if (b.fieldErrors && typeof b.fieldErrors === 'object') this.fieldErrors = b.fieldErrors as Record<string, string>;
    }
  }
}

// ---- navigation hook (set by the router; plain location change before that) ----------------------------

let navigator: (path: string) => void = (path) => window.location.assign(path);

/** The router registers its navigate function here so the request layer can route (403). */
export function setNavigator(fn: (path: string) => void): void {
  navigator = fn;
}

// ---- URL and body -----------------------------------------------------------------------------------------

/** Query string with repeated names for arrays; empty values are left out. */
export function buildQuery(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const sp = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null || v === '') continue;
      sp.append(key, v instanceof Date ? v.toISOString() : String(v));
    }
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

function withQuery(url: string, params: Record<string, unknown> | undefined): string {
  const q = buildQuery(params);
  if (!q) return url;
  return url.includes('?') ? `${url}&${q.slice(1)}` : `${url}${q}`;
}

function normalizeUrl(url: string): string {
  if (/^https?:\/\//.test(url) || url.startsWith('/')) return url;
  return `/${url}`;
}

// ---- error UI -----------------------------------------------------------------------------------------

let sessionExpiredDialogOpen = false;

function t(key: string, fallback: string): string {
  return i18n.isInitialized ? i18n.t(key, { ns: 'common', defaultValue: fallback }) : fallback;
}

function showSessionExpired(): void {
  if (sessionExpiredDialogOpen) return;
  sessionExpiredDialogOpen = true;
  feedback.modal.confirm({
    title: t('request.sessionExpiredTitle', '系统提示'),
    content: t('request.sessionExpired', '登录状态已过期，您可以继续留在该页面，或者重新登录'),
    okText: t('request.relogin', '重新登录'),
    cancelText: t('actions.cancel', '取消'),
    onOk: () => {
      sessionExpiredDialogOpen = false;
      // forget the dead token and reload: the route guard then sends the user to the login page
      removeToken();
      window.location.reload();
    },
    onCancel: () => {
      sessionExpiredDialogOpen = false;
    },
  });
}

function showError(message: string): void {
  feedback.notification.error({ title: message, duration: NOTIFY_SECONDS });
}

/** Global handling of a failure (spec §8); returns nothing, the caller rejects. */
function handleError(err: RequestError): void {
  if (err.kind === 'timeout') showError(t('request.timeout', '网络请求超时'));
  else if (err.kind === 'network') showError(t('request.network', '网络请求错误'));
  else if (err.status === 401) showSessionExpired();
  else if (err.status === 403) navigator(isOrdinaryEmployee(getUser()) ? '/acPayslip/index' : '/401');
  else if (err.message) showError(err.message);
}

function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  if (typeof body === 'string' && body.trim() && body.length < 300 && !body.trim().startsWith('<')) return body.trim();
  if (status === 405) return t('request.apiError', '接口异常，请联系管理员！');
  return t('request.failed', '请求失败') + ` (${status})`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

// ---- core ---------------------------------------------------------------------------------------------

/** Low-level call: resolves with the body and the Response; on failure shows the §8 UI and rejects. */
export async function requestRaw<T = unknown>(opts: RequestOptions): Promise<{ data: T; response: Response }> {
  const method = (opts.method ?? 'GET').toUpperCase();
  // the server answers error messages in this language (the UI's), so they show as the screens do
  const headers: Record<string, string> = { Accept: 'application/json, */*', 'Accept-Language': currentLanguage(), ...opts.headers };
  // the session: a bearer token in memory, or the HttpOnly cookie (sent by the browser) plus its CSRF token
  Object.assign(headers, authHeaders());
  let body: BodyInit | undefined;
  if (opts.data !== undefined && method !== 'GET') {
    if (opts.data instanceof FormData || opts.data instanceof Blob || typeof opts.data === 'string') body = opts.data as BodyInit;
    else {
      body = JSON.stringify(opts.data);
      headers['Content-Type'] = 'application/json;charset=utf-8';
    }
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeout ?? DEFAULT_TIMEOUT_MS);

  const fail = (err: RequestError): never => {
    if (!opts.silent) handleError(err);
    throw err;
  };

  let response: Response;
  try {
    response = await fetch(withQuery(normalizeUrl(opts.url), opts.params), { method, headers, body, signal: controller.signal });
  } catch {
    clearTimeout(timer);
    return timedOut
      ? fail(new RequestError('timeout', t('request.timeout', '网络请求超时')))
      : fail(new RequestError('network', t('request.network', '网络请求错误')));
  }
  try {
    if (response.status < 200 || response.status >= 300) {
      const errBody = await readBody(response).catch(() => undefined);
      return fail(new RequestError('http', messageOf(errBody, response.status), response.status, errBody));
    }
    const data = opts.responseType === 'blob' ? await response.blob() : await readBody(response);
    return { data: data as T, response };
  } catch (e) {
    if (e instanceof RequestError) throw e;
    return timedOut
      ? fail(new RequestError('timeout', t('request.timeout', '网络请求超时')))
      : fail(new RequestError('network', t('request.network', '网络请求错误')));
  } finally {
    clearTimeout(timer);
  }
}

/** A call to the server; resolves with the parsed JSON (or Blob), rejects with RequestError. */
export async function request<T = unknown>(opts: RequestOptions): Promise<T> {
  return (await requestRaw<T>(opts)).data;
}

type Extra = Omit<RequestOptions, 'url' | 'method' | 'params' | 'data'>;

/** Shorthands: api.get(url, params), api.post(url, data), api.put(url, data), api.del(url, data). */
export const api = {
  get: <T = unknown>(url: string, params?: Record<string, unknown>, extra?: Extra) => request<T>({ url, method: 'GET', params, ...extra }),
  post: <T = unknown>(url: string, data?: unknown, extra?: Extra & { params?: Record<string, unknown> }) =>
    request<T>({ url, method: 'POST', data, ...extra }),
  put: <T = unknown>(url: string, data?: unknown, extra?: Extra & { params?: Record<string, unknown> }) =>
    request<T>({ url, method: 'PUT', data, ...extra }),
  del: <T = unknown>(url: string, data?: unknown, extra?: Extra & { params?: Record<string, unknown> }) =>
    request<T>({ url, method: 'DELETE', data, ...extra }),
};

// ---- downloads ----------------------------------------------------------------------------------------

export interface DownloadOptions {
  method?: HttpMethod | Lowercase<HttpMethod>;
  params?: Record<string, unknown>;
  data?: unknown;
  /** File name offered to the user; the extension of the server's file name is added when missing. */
  fileName?: string;
  timeout?: number;
}

function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

/** Save a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Download a file (Excel exports and templates). A JSON answer instead of a file is an error: its message is
 * shown (2.5 s) and the promise rejects.
 */
export async function downloadBlob(url: string, opts: DownloadOptions = {}): Promise<void> {
  const { data: blob, response } = await requestRaw<Blob>({
    url,
    method: opts.method ?? 'GET',
    params: opts.params,
    data: opts.data,
    timeout: opts.timeout,
    responseType: 'blob',
  });
  if ((blob.type || response.headers.get('content-type') || '').includes('json')) {
    let body: unknown;
    try {
      body = JSON.parse(await blob.text());
    } catch {
      body = undefined;
    }
    const err = new RequestError('http', messageOf(body, response.status), response.status, body);
    showError(err.message);
    throw err;
  }
  const serverName = fileNameFromDisposition(response.headers.get('content-disposition'));
  let name = opts.fileName ?? serverName ?? 'download';
  if (!/\.[A-Za-z0-9]{2,5}$/.test(name)) {
    const ext = serverName && /\.[A-Za-z0-9]{2,5}$/.exec(serverName)?.[0];
    name += ext ?? '.xlsx';
  }
  saveBlob(blob, name);
}

/** Test hook: forget the "session expired" dialog state. */
export function resetRequestStateForTests(): void {
  sessionExpiredDialogOpen = false;
  navigator = (path) => window.location.assign(path);
}
