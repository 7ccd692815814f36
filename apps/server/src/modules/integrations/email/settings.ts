import type { SmtpSettingsInput, SmtpSettingsView } from '@app/shared/contracts/email';
import { nowIso } from '../../../core/db.ts';
import type { TypedDb } from '../../../core/dbTypes.ts';
import { AppError } from '../../../core/errors.ts';
import { isObscureIpv4 } from '../../../core/net/outboundGuard.ts';
import { maskSecret, nextBoundSecret, type SecretBox, secretTargetChanged } from '../../../core/secrets.ts';

/**
 * The SMTP configuration (spec §3 "Mail config": id fixed 1, fromUser, user, pass, host, port, sslEnable).
 * The password is sealed with the deployment's SecretBox; reads show the mask, and a save with an empty or
 * masked password keeps the stored one as long as host, port and user are unchanged.
 */

/** The tables this module reads, typed in core/dbTypes.ts like every other. */
export type EmailDb = TypedDb;

/** The single configuration row. */
const CONFIG_ID = 1;

/** Settings with the password opened: only for building a transport, never for an answer or a log. */
export interface SmtpSettings {
  fromUser: string;
  user: string;
  pass: string;
  host: string;
  port: number;
  sslEnable: boolean;
}

const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
/** A host name or IPv4 address, nothing else (no scheme, path or port). */
const HOST_RE = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;

/** A well-formed e-mail address (the same rule the web forms use). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_RE.test(value);
}



const truthy = (v: unknown) => v === true || v === 1 || v === 'true' || v === '1';

/** The form checked by the spec's rules (§5 Mail config); `pass` stays as given (maybe masked or empty). */
export function checkSettings(input: SmtpSettingsInput): Omit<SmtpSettings, 'pass'> & { pass: string | undefined } {
  const fromUser = (input.fromUser ?? '').trim();
  if (!fromUser) throw new AppError('EMAIL_FROM_REQUIRED', {}, { fromUser: { code: 'EMAIL_FROM_REQUIRED' } });
  if (!isEmailAddress(fromUser)) throw new AppError('EMAIL_INVALID', {}, { fromUser: { code: 'EMAIL_INVALID' } });
  const user = (input.user ?? '').trim();
  if (!user) throw new AppError('EMAIL_USER_REQUIRED', {}, { user: { code: 'EMAIL_USER_REQUIRED' } });
  const host = (input.host ?? '').trim();
  if (!host) throw new AppError('EMAIL_HOST_REQUIRED', {}, { host: { code: 'EMAIL_HOST_REQUIRED' } });
  // numeric spellings such as 2130706433 or 0x7f000001 are addresses in disguise (127.0.0.1), not host names
  if (!HOST_RE.test(host) || isObscureIpv4(host)) throw new AppError('EMAIL_HOST_FORMAT', {}, { host: { code: 'EMAIL_HOST_FORMAT' } });
  if (input.port === undefined || input.port === '') throw new AppError('EMAIL_PORT_REQUIRED', {}, { port: { code: 'EMAIL_PORT_REQUIRED' } });
  const port = typeof input.port === 'number' ? input.port : /^\d{1,5}$/.test(input.port.trim()) ? Number(input.port.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AppError('EMAIL_PORT_RANGE', {}, { port: { code: 'EMAIL_PORT_RANGE' } });
  return { fromUser, user, host, port, sslEnable: truthy(input.sslEnable), pass: input.pass };
}

async function configRow(db: EmailDb) {
  return db.selectFrom('tool_email_config').selectAll().where('id', '=', CONFIG_ID).executeTakeFirst();
}

/** GET: the stored settings with the password masked (empty settings when none are stored). */
export async function readSettingsView(db: EmailDb): Promise<SmtpSettingsView> {
  const row = await configRow(db);
  return {
    id: CONFIG_ID,
    fromUser: row?.from_user ?? '',
    user: row?.user_name ?? '',
    pass: maskSecret(row?.pass_sealed),
    host: row?.host ?? '',
    port: row?.port ?? null,
    sslEnable: row ? !!Number(row.ssl_enable) : true,
    updateTime: row?.update_time ?? null,
  };
}

/** Opens a sealed password; a value sealed with another key is a clear 409, not a 500. */
function openPassword(secrets: SecretBox, sealed: string | null | undefined): string {
  if (!sealed) return '';
  try {
    return secrets.open(sealed);
  } catch {
    throw new AppError('EMAIL_SECRET_UNREADABLE', {});
  }
}

/** The stored settings ready for a transport, or null when no complete configuration is stored. */
export async function readSettings(db: EmailDb, secrets: SecretBox): Promise<SmtpSettings | null> {
  const row = await configRow(db);
  if (!row?.host || !row.port || !row.from_user) return null;
  return {
    fromUser: row.from_user,
    user: row.user_name ?? '',
    pass: openPassword(secrets, row.pass_sealed),
    host: row.host,
    port: Number(row.port),
    sslEnable: !!Number(row.ssl_enable),
  };
}

/** What the stored SMTP password is bound to, keyed by the form's field names (host names are case-blind). */
function smtpTarget(host: string | null | undefined, port: number | null | undefined, user: string | null | undefined) {
  return { host: (host ?? '').trim().toLowerCase(), port: port ?? null, user: user ?? '' };
}

/**
 * The password a form means: typed now, or (empty or masked) the stored one, but only while host, port and
 * user are those it was saved for; any change of them needs the password typed again (finding N2).
 */
function sealedPassword(secrets: SecretBox, stored: Awaited<ReturnType<typeof configRow>>, checked: ReturnType<typeof checkSettings>): string | null {
  const storedSecret = stored ? { sealed: stored.pass_sealed, target: smtpTarget(stored.host, stored.port === null ? null : Number(stored.port), stored.user_name) } : undefined;
  return nextBoundSecret(secrets, storedSecret, checked.pass, smtpTarget(checked.host, checked.port, checked.user), (changed) =>
    secretTargetChanged('EMAIL_TARGET_CHANGED', 'pass', changed),
  );
}

/**
 * The settings a form describes, for the test-connection button: an empty or masked password means the
 * stored one (same server and user only), so a saved configuration can be tested without typing it again.
 */
export async function settingsFromForm(db: EmailDb, secrets: SecretBox, input: SmtpSettingsInput): Promise<SmtpSettings> {
  const checked = checkSettings(input);
  const stored = await configRow(db);
  const sealed = sealedPassword(secrets, stored, checked);
  if (!sealed) throw new AppError('EMAIL_PASS_REQUIRED', {}, { pass: { code: 'EMAIL_PASS_REQUIRED' } });
  const pass = sealed === stored?.pass_sealed ? openPassword(secrets, sealed) : String(checked.pass);
  return { ...checked, pass };
}

/** PUT: store the checked settings; the password is sealed, an empty or masked one keeps the stored value. */
export async function saveSettings(db: EmailDb, secrets: SecretBox, input: SmtpSettingsInput, username: string): Promise<void> {
  const checked = checkSettings(input);
  const stored = await configRow(db);
  const passSealed = sealedPassword(secrets, stored, checked);
  if (!passSealed) throw new AppError('EMAIL_PASS_REQUIRED', {}, { pass: { code: 'EMAIL_PASS_REQUIRED' } });
  const values = {
    from_user: checked.fromUser,
    user_name: checked.user,
    pass_sealed: passSealed,
    host: checked.host,
    port: checked.port,
    ssl_enable: checked.sslEnable ? 1 : 0,
    update_by: username,
    update_time: nowIso(),
  };
  if (stored) await db.updateTable('tool_email_config').set(values).where('id', '=', CONFIG_ID).execute();
  else await db.insertInto('tool_email_config').values({ id: CONFIG_ID, ...values, create_time: values.update_time }).execute();
}
