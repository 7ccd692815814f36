import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, verifyToken } from '../src/core/auth/tokens.ts';

/** verifyToken remembers tokens it has checked: the memory must never accept what the full check refuses. */
describe('verifyToken memory of checked tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('still refuses a token whose signature differs from a remembered one', () => {
    const secret = crypto.randomBytes(32);
    const { token, claims } = signToken(secret, 7, 1, 3600);
    expect(verifyToken(secret, token)).toEqual(claims);
    expect(verifyToken(secret, token)).toEqual(claims);
    const [h, p, sig] = token.split('.');
    const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(verifyToken(secret, flipped)).toBeNull();
    // same token, other secret: not remembered there
    expect(verifyToken(crypto.randomBytes(32), token)).toBeNull();
  });

  it('refuses a remembered token once it has expired', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const secret = crypto.randomBytes(32);
    const { token } = signToken(secret, 7, 1, 60);
    expect(verifyToken(secret, token)?.uid).toBe(7);
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(verifyToken(secret, token)?.uid).toBe(7);
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(verifyToken(secret, token)).toBeNull();
  });

  it('hands out claims a caller cannot use to change what is remembered (shared and frozen, not copied per call)', () => {
    const secret = crypto.randomBytes(32);
    const { token } = signToken(secret, 7, 1, 3600);
    const first = verifyToken(secret, token)!;
    expect(() => {
      (first as { uid: number }).uid = 99;
    }).toThrow(TypeError);
    expect(verifyToken(secret, token)?.uid).toBe(7);
  });
});
