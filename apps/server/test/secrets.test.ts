import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSecretBox, maskSecret, nextSealedSecret, SECRET_MASK, secretBoxFromKey } from '../src/core/secrets.ts';

describe('secrets at rest', () => {
  const box = secretBoxFromKey(crypto.randomBytes(32));

  it('seals with a fresh IV each time and opens to the same text', () => {
    const a = box.seal('授权码 abc123');
    const b = box.seal('授权码 abc123');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abc123');
    expect(box.open(a)).toBe('授权码 abc123');
    expect(box.seal('')).toBe('');
  });

  it('refuses a value sealed with another key or altered', () => {
    const sealed = box.seal('secret');
    expect(() => secretBoxFromKey(crypto.randomBytes(32)).open(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
  });

  it('masks on read and keeps the stored value when a save sends nothing, an empty string or the mask', () => {
    const stored = box.seal('old');
    expect(maskSecret(stored)).toBe(SECRET_MASK);
    expect(maskSecret(null)).toBe('');
    for (const input of [undefined, null, '', SECRET_MASK]) expect(nextSealedSecret(box, stored, input)).toBe(stored);
    expect(box.open(nextSealedSecret(box, stored, 'new') as string)).toBe('new');
  });

  it('keeps the generated key under DATA_DIR/keys (mode 0600) and reuses it; SECRETS_KEY wins', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-secrets-'));
    const sealed = loadOrCreateSecretBox(dir).seal('x');
    expect(loadOrCreateSecretBox(dir).open(sealed)).toBe('x');
    expect(fs.statSync(path.join(dir, 'keys', 'secrets.key')).mode & 0o777).toBe(0o600);
    const key = crypto.randomBytes(32).toString('base64');
    expect(loadOrCreateSecretBox(dir, key).open(secretBoxFromKey(Buffer.from(key, 'base64')).seal('y'))).toBe('y');
    expect(() => loadOrCreateSecretBox(dir, 'c2hvcnQ=')).toThrow('32 bytes');
  });
});
