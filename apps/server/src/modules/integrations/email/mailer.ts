import net from 'node:net';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import type { MailMessage, MailSender } from '../../../core/mail.ts';
import { OUTBOUND_POLICIES, resolveOutbound } from '../../../core/net/outboundGuard.ts';
import type { SecretBox } from '../../../core/secrets.ts';
import { type EmailDb, readSettings, type SmtpSettings } from './settings.ts';
import { htmlToPlainText } from './plainText.ts';

/**
 * The server's mailer: SMTP through nodemailer with the stored configuration (系统工具 › 邮件工具 › 配置).
 * It is `app.ctx.mail`, so the personal centre's change-e-mail codes go out through the same server as the
 * e-mail tool's messages. Every message sent (or refused) is a row of the mail log.
 */

export interface SmtpMailerOptions {
  /**
   * Sender used while no SMTP server is configured (tests and benchmarks pass the logging sender). Without
   * one, sending before the configuration exists is a clear EMAIL_NOT_CONFIGURED, never a silent drop.
   */
  whenNotConfigured?: MailSender;
  /** Verify the server's TLS certificate (default true; the tests' stand-in has a self-signed one). */
  tlsRejectUnauthorized?: boolean;
  /** SMTP_HOST_ALLOWLIST: hosts, addresses or CIDR ranges the SMTP host may be although loopback. */
  hostAllowlist?: readonly string[];
}

/** An inline image: referenced from the HTML as `cid:<cid>`. */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail extends MailMessage {
  attachments?: InlineImage[];
  /** For the log: 'tool' (the e-mail tool) or 'code' (a verification code). */
  kind?: 'tool' | 'code';
  /** Username of whoever sent it (the log's 创建者). */
  sentBy?: string;
}

// Generous for a slow provider, short enough that a wrong host or SSL setting answers within a request.
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** nodemailer options for stored settings: SSL is implicit TLS (465); otherwise STARTTLS, required. */
export function transportOptions(s: SmtpSettings, tlsRejectUnauthorized = true, address?: string): SMTPTransport.Options {
  return {
    // the address the guard checked (smtpAddress), so that nodemailer does not resolve the name a second time;
    // TLS still presents and verifies the name (servername below)
    host: address ?? s.host,
    port: s.port,
    secure: s.sslEnable,
    // without SSL, STARTTLS is required before AUTH: a server (or a man in the middle) that does not offer it
    // never sees the password in clear
    requireTLS: !s.sslEnable,
    auth: s.user ? { user: s.user, pass: s.pass } : undefined,
    // SNI takes a host name only
    tls: { rejectUnauthorized: tlsRejectUnauthorized, minVersion: 'TLSv1.2', ...(net.isIP(s.host) ? {} : { servername: s.host }) },
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // nodemailer's own logger stays off: it would print the AUTH exchange
    logger: false,
    debug: false,
  };
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

/** Commands sent after a valid greeting and EHLO: a numbered reply to one of them comes from a peer that speaks SMTP. */
const SMTP_SESSION_COMMAND = /^(AUTH\b|MAIL FROM|RCPT TO|DATA|STARTTLS|RSET)/;

/**
 * An SMTP failure as a message users can act on, from the catalogue only: never the peer's text, or the test
 * button is a port scanner with banner grabbing (finding N5). Only a peer that answered our commands after a
 * valid greeting and EHLO gets a specific message: a refused login (the 授权码 hint), STARTTLS failed, or
 * `SMTP <reply code>`. Whatever fails before that (refused, reset, timed out, a TLS handshake with a port that
 * does not speak TLS, a greeting that is not SMTP) reads the same, with the host, port and SSL hint.
 */
export function smtpError(err: unknown, s: Pick<SmtpSettings, 'host' | 'port'>): AppError {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as SmtpFailure;
  const spokeSmtp = typeof e.command === 'string' && SMTP_SESSION_COMMAND.test(e.command) && e.code !== 'EPROTOCOL';
  if (spokeSmtp) {
    if (e.code === 'EAUTH') return new AppError('EMAIL_AUTH_FAILED', {});
    if (e.code === 'ETLS') return new AppError('EMAIL_TLS_FAILED', {});
    const reply = Number(e.responseCode);
    if (Number.isInteger(reply) && reply >= 400 && reply <= 599) return new AppError('EMAIL_REJECTED', { reason: `SMTP ${reply}` });
  }
  return new AppError('EMAIL_CONNECT_FAILED', { host: s.host, port: s.port });
}

/** The checked address to connect to for the SMTP host (core/net/outboundGuard.ts; loopback only with SMTP_HOST_ALLOWLIST). */
export async function smtpAddress(host: string, allowlist: readonly string[] = []): Promise<string> {
  return (await resolveOutbound(host, OUTBOUND_POLICIES.smtp(allowlist)))[0].address;
}

/** nodemailer, loaded when the first message or connection test goes out (most installations send rarely). */
async function smtp(): Promise<typeof import('nodemailer')['default']> {
  return (await import('nodemailer')).default;
}

/** Opens a connection, says hello, logs in and closes: the 测试连接 button. Throws the Chinese reason. */
export async function verifySmtp(s: SmtpSettings, tlsRejectUnauthorized = true, hostAllowlist: readonly string[] = []): Promise<void> {
  const address = await smtpAddress(s.host, hostAllowlist);
  const transport = (await smtp()).createTransport(transportOptions(s, tlsRejectUnauthorized, address));
  try {
    await transport.verify();
  } catch (err) {
    throw smtpError(err, s);
  } finally {
    transport.close();
  }
}

/** The mail log row of one message. */
async function writeLog(db: EmailDb, m: OutgoingMail, outcome: { status: 'SENT' | 'FAILED'; messageId?: string; error?: string }): Promise<void> {
  const now = nowIso();
  const tos = m.to.join(', ');
  await db
    .insertInto('tool_email_log')
    .values({
      subject: m.subject.slice(0, 200),
      tos: tos.length > 5000 ? `${tos.slice(0, 5000)}…` : tos,
      recipient_count: m.to.length,
      status: outcome.status,
      message_id: outcome.messageId?.slice(0, 255) ?? null,
      error: outcome.error?.slice(0, 500) ?? null,
      kind: m.kind ?? 'code',
      create_by: m.sentBy?.slice(0, 50) ?? null,
      create_time: now,
      update_time: now,
    })
    .execute();
}

/** `app.ctx.mail`: sends through the configured SMTP server and logs each message. */
export class SmtpMailSender implements MailSender {
  constructor(
    private readonly db: EmailDb,
    private readonly secrets: SecretBox,
    private readonly opts: SmtpMailerOptions = {},
  ) {}

  /** Whether a complete SMTP configuration is stored. */
  async configured(): Promise<boolean> {
    return (await readSettings(this.db, this.secrets)) !== null;
  }

  async send(message: MailMessage): Promise<void> {
    const { rejected } = await this.sendMail(message);
    if (rejected.length) throw new AppError('EMAIL_REJECTED', { reason: rejected.join(', ') });
  }

  /**
   * Sends one message (To: every recipient); resolves with the server's message id and the recipients the server
   * refused (the others got it); throws the Chinese reason when nobody did.
   */
  async sendMail(message: OutgoingMail): Promise<{ messageId: string | undefined; rejected: string[] }> {
    const settings = await this.settingsOrFallback(message);
    if (!settings) return { messageId: undefined, rejected: [] };
    const address = await this.checkedAddress(settings, message);
    const transport = (await smtp()).createTransport(transportOptions(settings, this.opts.tlsRejectUnauthorized ?? true, address));
    try {
      return await this.deliver(transport, settings, message);
    } finally {
      transport.close();
    }
  }

  /**
   * One message per recipient over one connection, so nobody sees the others' addresses (工资条 notices to staff).
   * A recipient the server refuses is reported and the rest still go; a failure that would hit every recipient
   * (login, TLS, connection) stops at the first and is thrown.
   */
  async sendSeparately(message: OutgoingMail): Promise<{ sent: number; failed: { to: string; reason: string }[] }> {
    const settings = await this.settingsOrFallback(message);
    if (!settings) return { sent: message.to.length, failed: [] };
    const address = await this.checkedAddress(settings, message);
    const transport = (await smtp()).createTransport({ ...transportOptions(settings, this.opts.tlsRejectUnauthorized ?? true, address), pool: true, maxConnections: 1 });
    const failed: { to: string; reason: string }[] = [];
    try {
      for (const to of message.to) {
        try {
          const { rejected } = await this.deliver(transport, settings, { ...message, to: [to] });
          if (rejected.length) failed.push({ to, reason: rejected.join(', ') });
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'EMAIL_REJECTED' || failed.length + 1 === message.to.length) throw err;
          failed.push({ to, reason: err.message });
        }
      }
    } finally {
      transport.close();
    }
    return { sent: message.to.length - failed.length, failed };
  }

  private async settingsOrFallback(message: OutgoingMail): Promise<SmtpSettings | null> {
    const settings = await readSettings(this.db, this.secrets);
    if (settings) return settings;
    if (this.opts.whenNotConfigured) {
      await this.opts.whenNotConfigured.send(message);
      return null;
    }
    throw new AppError('EMAIL_NOT_CONFIGURED', {});
  }

  private async deliver(transport: Transporter, settings: SmtpSettings, message: OutgoingMail): Promise<{ messageId: string; rejected: string[] }> {
    try {
      const info = await transport.sendMail({
        from: settings.fromUser,
        to: message.to,
        subject: message.subject,
        html: message.html,
        // a text/plain alternative beside the HTML, derived from the sanitised HTML
        text: htmlToPlainText(message.html),
        attachments: message.attachments?.map((a) => ({ cid: a.cid, filename: a.filename, contentType: a.contentType, content: a.content, contentDisposition: 'inline' as const })),
      });
      // a server may accept some recipients and refuse others: the message went, the refused ones are named
      const rejected = ((info.rejected ?? []) as (string | { address: string })[]).map((r) => (typeof r === 'string' ? r : r.address));
      await writeLog(this.db, message, { status: 'SENT', messageId: info.messageId, error: rejected.length ? `拒收：${rejected.join(', ')}` : undefined });
      return { messageId: info.messageId, rejected };
    } catch (err) {
      const failure = smtpError(err, settings);
      await writeLog(this.db, message, { status: 'FAILED', error: failure.message });
      throw failure;
    }
  }

  /** The settings' transport check with this sender's TLS rule and host allow-list. */
  verify(settings: SmtpSettings): Promise<void> {
    return verifySmtp(settings, this.opts.tlsRejectUnauthorized ?? true, this.opts.hostAllowlist);
  }

  /** Throws the guard's message when this sender may not connect to `host` (a save checks it before storing). */
  async checkHost(host: string): Promise<void> {
    await smtpAddress(host, this.opts.hostAllowlist);
  }

  /** The checked address of the configured host; a refused host is a FAILED row of the mail log too. */
  private async checkedAddress(settings: SmtpSettings, message: OutgoingMail): Promise<string> {
    try {
      return await smtpAddress(settings.host, this.opts.hostAllowlist);
    } catch (err) {
      await writeLog(this.db, message, { status: 'FAILED', error: (err as Error).message });
      throw err;
    }
  }
}
