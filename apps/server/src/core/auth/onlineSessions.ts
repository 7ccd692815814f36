import type { Cache } from '../cache.ts';
import { cacheNamespace } from '../cacheNamespaces.ts';
import { REVOKED_TOKENS } from './tokens.ts';

/**
 * 在线用户 (issue 25 item 4, M8): one cache record per login session (token id), written at login with the
 * token's lifetime, refreshed (last seen) at most once a minute per session and per instance, removed at
 * logout. 强退 revokes the session's token through the same revoked-token key as a logout, so the next
 * request with it is refused (401) on every instance, then drops the record. Protected: clearing the cache
 * namespace would hide sessions, not end them.
 */
export const ONLINE_SESSIONS = cacheNamespace('online', 'protected', '在线会话');

/** How often a session's last-seen time is written (per session, per instance). */
export const TOUCH_INTERVAL_MS = 60_000;
/** Sessions listed at most (a larger office pages through 操作日志 instead). */
const MAX_LISTED = 2000;

export interface OnlineSession {
  jti: string;
  userId: number;
  username: string;
  nickName: string | null;
  deptName: string | null;
  ip: string;
  browser: string;
  loginTime: string;
  lastSeen: string;
  /** Token expiry, seconds since the epoch. */
  exp: number;
}

const remaining = (exp: number) => exp - Math.floor(Date.now() / 1000);

export async function recordSession(cache: Cache, s: OnlineSession): Promise<void> {
  const ttl = remaining(s.exp);
  if (ttl > 0) await cache.set(ONLINE_SESSIONS.key(s.jti), JSON.stringify(s), ttl);
}

/** Last touch per session on this instance, so most requests cost no cache write. */
const lastTouch = new Map<string, number>();

/** Whether a minute has passed since this instance last wrote the session's last-seen time (a Map look-up, no promise). */
export function sessionTouchDue(jti: string, now = Date.now()): boolean {
  const last = lastTouch.get(jti);
  return last === undefined || now - last >= TOUCH_INTERVAL_MS;
}

/** Updates last seen when a minute has passed since this instance last did for the session. */
export async function touchSession(cache: Cache, jti: string, exp: number, now = Date.now()): Promise<void> {
  const last = lastTouch.get(jti);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
  if (lastTouch.size > 50_000) lastTouch.clear();
  lastTouch.set(jti, now);
  const raw = await cache.get(ONLINE_SESSIONS.key(jti));
  // a token from before this feature (or an API client's) has no record: nothing to refresh
  if (!raw) return;
  const s = JSON.parse(raw) as OnlineSession;
  await recordSession(cache, { ...s, lastSeen: new Date(now).toISOString(), exp });
}

export async function forgetSession(cache: Cache, jti: string): Promise<void> {
  lastTouch.delete(jti);
  await cache.del(ONLINE_SESSIONS.key(jti));
}

export async function listSessions(cache: Cache): Promise<OnlineSession[]> {
  const keys = await cache.keys(`${ONLINE_SESSIONS.name}:*`, MAX_LISTED);
  if (!keys.length) return [];
  const values = await cache.getMany(keys);
  const out: OnlineSession[] = [];
  for (const v of values) {
    if (!v) continue;
    try {
      const s = JSON.parse(v) as OnlineSession;
      if (remaining(s.exp) > 0) out.push(s);
    } catch {
      // a damaged record is skipped, not shown
    }
  }
  return out.sort((a, b) => b.lastSeen.localeCompare(a.lastSeen));
}

/** 强退: the session's token is revoked until it would have expired, and its record removed. False when unknown. */
export async function revokeSession(cache: Cache, jti: string): Promise<OnlineSession | null> {
  const raw = await cache.get(ONLINE_SESSIONS.key(jti));
  if (!raw) return null;
  const s = JSON.parse(raw) as OnlineSession;
  await cache.set(REVOKED_TOKENS.key(jti), '1', Math.max(1, remaining(s.exp)));
  await forgetSession(cache, jti);
  return s;
}
