/**
 * The namespaces of the shared cache, each declared once, where its keys are made, with its kind. A key is
 * `<namespace>:<rest>`; the cache manager (`api/redis`) reads this registry to group keys, mask values and
 * decide what may be deleted:
 *
 * - `rebuildable`: derived data the application recomputes on its next use (lookups, epochs, statistics).
 *   "清空缓存" deletes these and nothing else.
 * - `protected`: security state, single-use codes, counters and locks: revoked tokens (deleting one would
 *   let a logged-out token work again), captchas, rate-limit and lock-out counters, job locks, files kept
 *   for a user. Never deleted in bulk; values are masked; a single key or the namespace may be deleted only
 *   when the namespace says `adminMayDelete` (unlocking a locked-out user is such a case).
 *
 * A key whose namespace nobody declared counts as protected: an unknown key is never cleared by accident.
 */
export type CacheNamespaceKind = 'rebuildable' | 'protected';

export interface CacheNamespace {
  /** Text before the first ':' of the keys. */
  readonly name: string;
  readonly kind: CacheNamespaceKind;
  /** What the keys hold, in Chinese, for the cache screen. */
  readonly title: string;
  /** A protected namespace whose keys an administrator may delete one by one or all together. */
  readonly adminMayDelete: boolean;
  /** The key `<name>:<parts joined by ':'>`. */
  key(...parts: (string | number)[]): string;
}

const registry = new Map<string, CacheNamespace>();

/**
 * Declare a namespace (once per name; declaring it again with another kind is a programming error).
 * Returns the key builder its users call.
 */
export function cacheNamespace(name: string, kind: CacheNamespaceKind, title: string, opts: { adminMayDelete?: boolean } = {}): CacheNamespace {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) throw new Error(`cache namespace name must be a word, got ${name}`);
  const adminMayDelete = kind === 'rebuildable' || opts.adminMayDelete === true;
  const known = registry.get(name);
  if (known) {
    if (known.kind !== kind || known.adminMayDelete !== adminMayDelete) throw new Error(`cache namespace ${name} declared twice with different rules`);
    return known;
  }
  const ns: CacheNamespace = { name, kind, title, adminMayDelete, key: (...parts) => `${name}:${parts.join(':')}` };
  registry.set(name, ns);
  return ns;
}

/** The namespace part of a key (text before the first ':'; the whole key when it has none). */
export function namespaceOfKey(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(0, i);
}

/** The declared namespace of a name, or undefined (then the keys count as protected). */
export function declaredNamespace(name: string): CacheNamespace | undefined {
  return registry.get(name);
}

/** Every declared namespace, by name. */
export function declaredNamespaces(): CacheNamespace[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** True when "清空缓存" may delete keys of this namespace name. */
export function isRebuildable(name: string): boolean {
  return registry.get(name)?.kind === 'rebuildable';
}

/** True when an administrator may delete keys of this namespace name (rebuildable, or protected with leave). */
export function adminMayDelete(name: string): boolean {
  return registry.get(name)?.adminMayDelete === true;
}
