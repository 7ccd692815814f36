import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AppError } from '../../../core/errors.ts';
import { type CheckedAddress, OUTBOUND_POLICIES, resolveOutbound } from '../../../core/net/outboundGuard.ts';
import type { CellValue, FileType, ModelResult, OutputFile } from './types.ts';

/**
 * External models (`site = http(s)://…`): the server POSTs the rows to an analysis service and reads sheets
 * back. Guards (design §2.3, findings on SSRF through user-configured URLs):
 * - the host must be on the allow-list (`MODEL_SITE_ALLOWLIST`, `*.suffix` allowed);
 * - every address the host resolves to must be public, unless the host is listed in `MODEL_SITE_PRIVATE_HOSTS`
 *   (a company's own analysis server on its LAN; metadata addresses never): core/net/outboundGuard.ts; the
 *   connection goes to the address that was checked, so a second DNS answer cannot swap in an internal one;
 * - no redirects, a time limit, request and response size limits, only 2xx accepted;
 * - a failure never echoes what the peer sent (its body, an errno): an error is its HTTP status or a fixed text.
 */

export interface ExternalModelPolicy {
  allowlist: string[];
  privateHosts: string[];
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_EXTERNAL_POLICY: ExternalModelPolicy = { allowlist: [], privateHosts: [], timeoutMs: 10 * 60_000, maxBytes: 50 * 1024 * 1024 };

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

function hostAllowed(host: string, list: readonly string[]): boolean {
  const h = host.toLowerCase();
  return list.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (!e) return false;
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

/** The URL of a site, or a 400 saying why it is not allowed (scheme, credentials, host not on the list). */
export function parseSite(site: string, policy: ExternalModelPolicy): URL {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    throw new AppError('MODEL_SITE_FORBIDDEN', { reason: { code: 'MODEL_SITE_NOT_URL' } });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('MODEL_SITE_FORBIDDEN', { reason: { code: 'MODEL_SITE_HTTP_ONLY' } });
  if (url.username || url.password) throw new AppError('MODEL_SITE_FORBIDDEN', { reason: { code: 'MODEL_SITE_CREDENTIALS' } });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!hostAllowed(host, policy.allowlist)) throw new AppError('MODEL_SITE_FORBIDDEN', { reason: { code: 'MODEL_SITE_HOST_NOT_ALLOWED', params: { host: host.slice(0, 100) } } });
  return url;
}

/** Resolve the site's host and check every address; returns the address to connect to. */
export async function resolveSite(url: URL, policy: ExternalModelPolicy): Promise<CheckedAddress> {
  return (await resolveOutbound(url.hostname, OUTBOUND_POLICIES.model(policy.privateHosts)))[0];
}

export interface ExternalCall {
  site: string;
  fileType: FileType;
  /** HMAC key of the model (opened from its sealed secret); empty = unsigned. */
  secret: string;
  modelName: string;
  parameters: Record<string, unknown>;
  property?: string | null;
  columns: string[];
  rows: unknown[][];
  taskId: string;
  runId: string;
  signal?: AbortSignal;
}

function encodeBody(call: ExternalCall): { body: Buffer; contentType: string; query: string } {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  if (call.fileType === 'csv') {
    const q = (v: unknown) => {
      const s = cell(v);
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const text = [call.columns.map(q).join(','), ...call.rows.map((r) => r.map(q).join(','))].join('\r\n');
    return { body: Buffer.from(text, 'utf8'), contentType: 'text/csv; charset=utf-8', query: `params=${encodeURIComponent(JSON.stringify(call.parameters))}` };
  }
  if (call.fileType === 'text') {
    const t = (v: unknown) => cell(v).replace(/[\t\r\n]/g, ' ');
    const text = [call.columns.map(t).join('\t'), ...call.rows.map((r) => r.map(t).join('\t'))].join('\n');
    return { body: Buffer.from(text, 'utf8'), contentType: 'text/plain; charset=utf-8', query: `params=${encodeURIComponent(JSON.stringify(call.parameters))}` };
  }
  const json = JSON.stringify({ model: call.modelName, parameters: call.parameters, property: call.property ?? null, columns: call.columns, rows: call.rows });
  return { body: Buffer.from(json, 'utf8'), contentType: 'application/json; charset=utf-8', query: '' };
}

/** HMAC-SHA256 of the body as the receiving service checks it (`X-Signature: sha256=<hex>`). */
export const signBody = (secret: string, body: Buffer): string => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** POST the rows to an external model and read its sheets; every failure is a catalogued AppError. */
export async function callExternalModel(call: ExternalCall, policy: ExternalModelPolicy): Promise<ModelResult> {
  const url = parseSite(call.site, policy);
  const { body, contentType, query } = encodeBody(call);
  if (body.length > policy.maxBytes) throw new AppError('MODEL_REQUEST_TOO_LARGE', { max: mb(policy.maxBytes) });
  const target = await resolveSite(url, policy);
  if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-length': String(body.length),
    'x-task-id': call.taskId,
    'x-run-id': call.runId,
    accept: 'application/json',
  };
  if (call.secret) headers['x-signature'] = signBody(call.secret, body);
  const text = await new Promise<string>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(e);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers,
        // connect to the address that passed the check, whatever DNS says a second time
        lookup: (_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          opts?.all ? cb(null, [{ address: target.address, family: target.family }]) : cb(null, target.address, target.family),
        servername: net.isIP(url.hostname) ? undefined : url.hostname,
        agent: false,
      } as http.RequestOptions,
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          fail(new AppError('MODEL_REMOTE_REDIRECT'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > policy.maxBytes) return fail(new AppError('MODEL_REMOTE_TOO_LARGE', { max: mb(policy.maxBytes) }));
          chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          const out = Buffer.concat(chunks).toString('utf8');
          // the status only: the body is the peer's text
          if (status < 200 || status >= 300) return fail(new AppError('MODEL_REMOTE_STATUS', { status }));
          settled = true;
          clearTimeout(timer);
          resolve(out);
        });
      },
    );
    const timer = setTimeout(() => fail(new AppError('MODEL_REMOTE_TIMEOUT')), policy.timeoutMs);
    call.signal?.addEventListener('abort', () => fail(new AppError('MODEL_REMOTE_TIMEOUT')), { once: true });
    // refused, reset, not HTTP: one text, so that the answer does not tell which (a port scan through a model)
    req.on('error', () => fail(new AppError('MODEL_REMOTE_FAILED')));
    req.end(body);
  });
  return parseModelAnswer(text, call.rows.length);
}

/** `{files:[{name, sheets:[{name, columns, rows}]}], traits?}` -> workbooks of one sheet each. */
export function parseModelAnswer(text: string, rowsIn: number): ModelResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError('MODEL_REMOTE_BAD', { detail: { code: 'MODEL_REMOTE_NOT_JSON' } });
  }
  const d = data as { files?: unknown; traits?: unknown };
  if (!d || typeof d !== 'object' || !Array.isArray(d.files)) throw new AppError('MODEL_REMOTE_BAD', { detail: { code: 'MODEL_REMOTE_NO_FILES' } });
  const files: OutputFile[] = [];
  const safeName = (v: unknown, fallback: string) =>
    String(typeof v === 'string' && v.trim() ? v : fallback)
      .replace(/[\\/:*?"<>|]/g, '_')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes from file names
      .replace(/[\u0000-\u001f]/g, '_')
      .slice(0, 80);
  const cell = (v: unknown): CellValue => (v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'boolean' ? v : String(v).slice(0, 32_767));
  for (const [i, f] of (d.files as unknown[]).entries()) {
    const file = f as { name?: unknown; sheets?: unknown };
    if (!file || !Array.isArray(file.sheets)) throw new AppError('MODEL_REMOTE_BAD', { detail: { code: 'MODEL_REMOTE_NO_SHEETS', params: { file: i } } });
    for (const [j, s] of (file.sheets as unknown[]).entries()) {
      const sheet = s as { name?: unknown; columns?: unknown; rows?: unknown };
      if (!sheet || !Array.isArray(sheet.columns) || !Array.isArray(sheet.rows) || !sheet.rows.every(Array.isArray)) {
        throw new AppError('MODEL_REMOTE_BAD', { detail: { code: 'MODEL_REMOTE_SHEET_SHAPE', params: { file: i, sheet: j } } });
      }
      const base = safeName(file.name, `结果${i + 1}`);
      files.push({
        name: file.sheets.length > 1 ? `${base}_${safeName(sheet.name, String(j + 1))}` : base,
        sheet: { name: safeName(sheet.name, `Sheet${j + 1}`).slice(0, 31), columns: sheet.columns.map((c) => String(c)), rows: (sheet.rows as unknown[][]).map((r) => r.map(cell)) },
      });
    }
  }
  const traits: [string, number][] = Array.isArray(d.traits)
    ? (d.traits as unknown[])
        .filter((t): t is [unknown, unknown] => Array.isArray(t) && t.length >= 2 && Number.isFinite(Number(t[1])))
        .slice(0, 10)
        .map((t) => [String(t[0]).slice(0, 100), Number(t[1])])
    : [];
  return { files, traits, rowsIn };
}
