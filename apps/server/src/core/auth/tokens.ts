import crypto from 'node:crypto';

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

/** Verify signature, algorithm and expiry; null for anything forged, malformed or expired. */
export function verifyToken(secret: Buffer, token: string): TokenClaims | null {
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
