import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser session (S6): the access token travels in an `HttpOnly; SameSite=Strict` cookie that page
 * scripts cannot read (`Secure` when the request came over HTTPS, as Fastify sees it: with `TRUST_PROXY`,
 * the proxy's `X-Forwarded-Proto`). Requests that change something and are authenticated by that cookie must
 * also carry the session's CSRF token in the `X-CSRF-Token` header: a signed double submit. The token is an
 * HMAC of the session's token id under the server's token secret, handed to the page in a readable
 * `SameSite=Strict` cookie; another site can neither read it nor compute it, and a cookie planted by a
 * sibling sub-domain does not match a session it did not sign. API clients keep sending
 * `Authorization: Bearer`, which browsers never attach on their own, so those requests need no CSRF proof.
 *
 * Remember-me is a longer token lifetime on the server (REMEMBER_ME_TTL_SECONDS) and persistent cookies of
 * the same age; without it both cookies end with the browser session and the token after TOKEN_TTL_SECONDS.
 */
export const SESSION_COOKIE = 'dp_session';
export const CSRF_COOKIE = 'dp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** The value of one cookie of the request, or null. */
export function requestCookie(req: FastifyRequest, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}

/** The CSRF token of a session: HMAC-SHA256 of its token id under the token secret. */
export function csrfTokenFor(secret: Buffer, jti: string): string {
  return crypto.createHmac('sha256', secret).update(`csrf:${jti}`).digest('base64url');
}

/** Does the request carry the CSRF token of the session `jti`? (constant-time comparison) */
export function hasCsrfProof(req: FastifyRequest, secret: Buffer, jti: string): boolean {
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(secret, jti));
  const given = Buffer.from(sent);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function cookie(req: FastifyRequest, name: string, value: string, opts: { httpOnly: boolean; maxAgeSeconds?: number }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Strict'];
  if (opts.httpOnly) parts.push('HttpOnly');
  if (req.protocol === 'https') parts.push('Secure');
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
  return parts.join('; ');
}

/** Set the session cookie and its readable CSRF cookie; `persistentSeconds` for remember-me. */
export function setSessionCookies(req: FastifyRequest, reply: FastifyReply, token: string, csrf: string, persistentSeconds?: number): void {
  reply.header('set-cookie', [
    cookie(req, SESSION_COOKIE, token, { httpOnly: true, maxAgeSeconds: persistentSeconds }),
    cookie(req, CSRF_COOKIE, csrf, { httpOnly: false, maxAgeSeconds: persistentSeconds }),
  ]);
}

/** Expire both cookies (logout). */
export function clearSessionCookies(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', [cookie(req, SESSION_COOKIE, '', { httpOnly: true, maxAgeSeconds: 0 }), cookie(req, CSRF_COOKIE, '', { httpOnly: false, maxAgeSeconds: 0 })]);
}
