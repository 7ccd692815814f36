import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '@app/shared/errors/catalogue';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { AppError } from './errors.ts';

/**
 * Secrets at rest: passwords and keys that configuration screens store (data-source passwords, the storage
 * secret key, the SMTP password, the payment keys) are sealed with AES-256-GCM before they reach the database,
 * and never sent back: a read shows `SECRET_MASK`, a save with an empty or masked value keeps the stored one.
 *
 * The key is `SECRETS_KEY` (32 bytes, base64) when set, so that several instances on one database agree;
 * otherwise `<DATA_DIR>/keys/secrets.key`, generated on first start (mode 0600, never committed). Losing the key
 * loses the sealed values (they must be entered again), not the database.
 */
export interface SecretBox {
  /** `v1:<iv>:<tag>:<ciphertext>` (base64 parts); the empty string stays empty. */
  seal(plain: string): string;
  /** The plain text of a sealed value; throws when it was sealed with another key or altered. */
  open(sealed: string): string;
}

/** What a read returns in place of a stored secret. */
export const SECRET_MASK = '******';

const VERSION = 'v1';

export function secretBoxFromKey(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (base64)');
  return {
    seal(plain) {
      if (plain === '') return '';
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      if (sealed === '') return '';
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** The deployment's box: `SECRETS_KEY` or the key file under `<dataDir>/keys`. */
export function loadOrCreateSecretBox(dataDir: string, envKey?: string): SecretBox {
  if (envKey) return secretBoxFromKey(Buffer.from(envKey, 'base64'));
  const dir = path.join(dataDir, 'keys');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'secrets.key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return secretBoxFromKey(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
}

/** `SECRET_MASK` when a secret is stored, '' when none: what a GET shows. */
export function maskSecret(stored: string | null | undefined): string {
  return stored ? SECRET_MASK : '';
}

/**
 * The value to store after a save: an absent, empty or masked input keeps `stored`; anything else is sealed.
 * (A form that shows the mask and is saved unchanged must not replace the secret with the mask.)
 */
export function nextSealedSecret(box: SecretBox, stored: string | null | undefined, input: unknown): string | null {
  if (!isTypedSecret(input)) return stored ?? null;
  return box.seal(String(input));
}

/** True when a form field carries a secret typed now (not absent, empty or the mask a read showed). */
export function isTypedSecret(input: unknown): boolean {
  return !(input === undefined || input === null || input === '' || input === SECRET_MASK);
}

/**
 * Where a stored secret is sent: the fields that name the peer and the account (kind, host, port, user,
 * database; endpoint and bucket; app id). Values are compared as given, so callers pass them normalised
 * (host names in lower case, ports as numbers).
 */
export type SecretTarget = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** The fields of `next` whose values differ from `stored` (null, undefined and '' count as the same: unset). */
export function changedTargetFields(stored: SecretTarget, next: SecretTarget): string[] {
  const norm = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());
  const fields = new Set([...Object.keys(stored), ...Object.keys(next)]);
  return [...fields].filter((f) => norm(stored[f]) !== norm(next[f]));
}

/**
 * The sealed secret a save or a connection test uses, bound to its target: a secret typed now is sealed; an
 * absent, empty or masked one reuses the stored secret only when every field of the target is unchanged.
 * Otherwise whoever may edit the form could point the stored password at a host of their own and read it
 * there (findings N1, N2), so `refuse(changedFields)` is thrown and the secret must be typed again.
 * Null when nothing is typed and nothing is stored.
 */
export function nextBoundSecret(
  box: SecretBox,
  stored: { sealed: string | null | undefined; target: SecretTarget } | null | undefined,
  input: unknown,
  target: SecretTarget,
  refuse: (changedFields: string[]) => Error,
): string | null {
  if (isTypedSecret(input)) return box.seal(String(input));
  if (!stored?.sealed) return null;
  const changed = changedTargetFields(stored.target, target);
  if (changed.length) throw refuse(changed);
  return stored.sealed;
}

/**
 * The 400 of a reuse refused by `nextBoundSecret`: the message names the target's parts; the field errors mark
 * the secret's field and each changed field (keyed by the form's field names), so the form shows what changed.
 */
export function secretTargetChanged(code: ErrorCode, secretField: string, changedFields: string[]): AppError {
  const fieldErrors: Record<string, FieldMessage> = { [secretField]: { code } };
  for (const f of changedFields) fieldErrors[f] = { code: 'SECRET_TARGET_FIELD_CHANGED' };
  return new AppError(code, {}, fieldErrors);
}
