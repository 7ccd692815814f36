import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server on loopback standing in for a mail provider (smtp-server, with its built-in self-signed
 * certificate for SSL and STARTTLS). Like QQ or 163 it answers a wrong password with `535`; it keeps each
 * received message raw, with the session's TLS state, for the tests to decode.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The session was encrypted (SSL from the start, or upgraded with STARTTLS). */
  secure: boolean;
}

export interface SmtpStandIn {
  port: number;
  received: ReceivedMail[];
  /** Resolves with the next message to arrive (or one already waiting for `to`). */
  next(to?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export const STAND_IN_USER = 'sender@example.com';
export const STAND_IN_PASS = 'auth-code-3f9a1c';

export async function startSmtpStandIn(mode: 'ssl' | 'starttls' | 'plain'): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  const waiters: { to?: string; resolve: (m: ReceivedMail) => void }[] = [];
  const options: SMTPServerOptions = {
    secure: mode === 'ssl',
    hideSTARTTLS: mode === 'plain',
    allowInsecureAuth: mode === 'plain',
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === STAND_IN_USER && auth.password === STAND_IN_PASS) return cb(null, { user: auth.username });
      const err = new Error('Error: authentication failed, please use the authorization code') as Error & { responseCode: number };
      err.responseCode = 535;
      return cb(err);
    },
    // like a provider refusing an unknown mailbox
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('reject')) {
        const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      return cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: !!session.secure,
        };
        received.push(mail);
        const i = waiters.findIndex((w) => !w.to || mail.to.includes(w.to));
        if (i >= 0) waiters.splice(i, 1)[0].resolve(mail);
        cb();
      });
    },
  };
  const server = new SMTPServer(options);
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    next(to) {
      const waiting = received.find((m) => !to || m.to.includes(to));
      if (waiting) {
        received.splice(received.indexOf(waiting), 1);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve) =>
        waiters.push({
          to,
          resolve: (m) => {
            received.splice(received.indexOf(m), 1);
            resolve(m);
          },
        }),
      );
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---- a small MIME reader (enough for what nodemailer writes) ----------------------------------------------

function unfold(headerBlock: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of headerBlock.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return out;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= / =?UTF-8?Q?...?=) decoded. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_w, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const s = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface MimePart {
  headers: Map<string, string>;
  body: string;
}

/** Every leaf part of a message, bodies decoded (quoted-printable, base64 as text). */
export function mimeParts(raw: string): MimePart[] {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = unfold(raw.slice(0, split));
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => mimeParts(p.replace(/^\r?\n/, '')));
  }
  const enc = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const decoded = enc === 'quoted-printable' ? decodeQuotedPrintable(body) : enc === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('latin1') : body;
  return [{ headers, body: decoded }];
}

/** Subject and HTML body of a received message. */
export function readMail(raw: string): { subject: string; html: string; parts: MimePart[] } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = unfold(raw.slice(0, split));
  const parts = mimeParts(raw);
  const htmlPart = parts.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith('text/html'));
  const html = htmlPart ? (htmlPart.headers.get('content-transfer-encoding')?.toLowerCase() === 'base64' ? Buffer.from(htmlPart.body, 'latin1').toString('utf8') : htmlPart.body) : '';
  return { subject: decodeHeader(headers.get('subject') ?? ''), html, parts };
}

/**
 * Every line the app's logger writes from now on (the app must be built with `logRequests: true`); the lines are
 * kept instead of printed. Found through pino's own stream symbol, which every child logger (req.log) shares.
 */
export function captureLogLines(log: object): string[] {
  const lines: string[] = [];
  let owner: object | null = log;
  let streamSymbol: symbol | undefined;
  while (owner && !streamSymbol) {
    streamSymbol = Object.getOwnPropertySymbols(owner).find((s) => s.description === 'pino.stream');
    if (!streamSymbol) owner = Object.getPrototypeOf(owner);
  }
  if (!streamSymbol) throw new Error('not a pino logger (build the app with logRequests: true)');
  const stream = (log as Record<symbol, { write: (chunk: string) => boolean }>)[streamSymbol];
  stream.write = (chunk: string) => {
    lines.push(String(chunk));
    return true;
  };
  return lines;
}
