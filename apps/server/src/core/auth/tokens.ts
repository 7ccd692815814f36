import crypto from 'node:crypto';
import { cacheNamespace } from '../cacheNamespaces.ts';

/** Tokens revoked by logout until they expire: deleting one would let a logged-out token work again. */
export const REVOKED_TOKENS = cacheNamespace('revoked', 'protected', '已注销的令牌');

/** Claims of our access token: user id, the user's token version (bumped on password change), a token id. */
export interface TokenClaims {
  uid: number;
  tv: number;
  jti: string;
  iat: number;
  exp: number;
}

const b64url = (buf: Buffer) => buf.toString('base64url');
const HEADER = b64url(Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

// HMAC keys imported once per secret (an HMAC over a KeyObject skips re-importing the raw bytes per call).
const hmacKeys = new WeakMap<Buffer, crypto.KeyObject>();
function hmacKey(secret: Buffer): crypto.KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.createSecretKey(secret);
    hmacKeys.set(secret, key);
  }
  return key;
}

/** Sign a JWT (HS256) for a user. */
export function signToken(secret: Buffer, uid: number, tokenVersion: number, ttlSeconds: number): { token: string; claims: TokenClaims } {
  const iat = Math.floor(Date.now() / 1000);
  const claims: TokenClaims = { uid, tv: tokenVersion, jti: crypto.randomBytes(12).toString('hex'), iat, exp: iat + ttlSeconds };
  const payload = b64url(Buffer.from(JSON.stringify(claims)));
  const sig = b64url(crypto.createHmac('sha256', hmacKey(secret)).update(`${HEADER}.${payload}`).digest());
  return { token: `${HEADER}.${payload}.${sig}`, claims };
}

/**
 * Tokens whose signature was checked, per secret, by their full text (signature included, so a forged token
 * never matches an entry): a client sends the same token with every request, and the HMAC, base64 and JSON
 * work was ~8 % of a users-list request (bench/users-list.ts profile). Expiry is still checked on every use;
 * revocation (logout) and the token version are checked by the caller against the cache and the user row.
 * Bounded: the oldest entries go first.
 */
const VERIFIED_MAX = 1000;
const verified = new WeakMap<Buffer, Map<string, Readonly<TokenClaims>>>();

/** Verify signature, algorithm and expiry; null for anything forged, malformed or expired. The claims are shared (frozen). */
export function verifyToken(secret: Buffer, token: string): Readonly<TokenClaims> | null {
  let known = verified.get(secret);
  const hit = known?.get(token);
  if (hit) {
    if (hit.exp > Math.floor(Date.now() / 1000)) return hit;
    known!.delete(token);
    return null;
  }
  const claims = checkToken(secret, token);
  if (claims) {
    if (!known) verified.set(secret, (known = new Map()));
    known.set(token, Object.freeze(claims));
    if (known.size > VERIFIED_MAX) known.delete(known.keys().next().value as string);
  }
  return claims;
}

function checkToken(secret: Buffer, token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = crypto.createHmac('sha256', hmacKey(secret)).update(`${parts[0]}.${parts[1]}`).digest();
  let given: Buffer;
  try {
    given = Buffer.from(parts[2], 'base64url');
  } catch {
    return null;
  }
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as TokenClaims;
    if (!Number.isInteger(claims.uid) || !Number.isInteger(claims.exp) || typeof claims.jti !== 'string') return null;
    if (claims.exp <= Math.floor(Date.now() / 1000)) return null;
    return claims;
  } catch {
    return null;
  }
}
