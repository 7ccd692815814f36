import { RESOURCES } from '@app/shared/resources/index';
import { registerShippedPermissionGroups } from '@app/shared/permissions';
import type { ResourceDef } from '@app/shared/resource/types';
import { migrateToLatest } from '../../migrations/index.ts';
import type { Database } from '../core/db.ts';
import { shippedDefinitions } from './definitions.ts';
import { withStartupLock } from './startupLock.ts';
import { type SyncReport, syncDefinitions } from './syncDefinitions.ts';

/** Every definition the server ships. */
export const SHIPPED_RESOURCES: readonly ResourceDef[] = Object.values(RESOURCES);

// Codes derived from definitions are built-in like the listed ones (fixed names, `_ALL` holds the actions).
registerShippedPermissionGroups(shippedDefinitions(SHIPPED_RESOURCES).permissionGroups);

export interface PrepareOptions {
  /** Definitions to sync (default every shipped one); tests add throwaway ones. */
  resources?: readonly ResourceDef[];
  /** More start-up work under the same lock (main.ts: the first-start seed and the demo data). */
  afterSync?: () => Promise<void>;
}

export interface PrepareResult {
  migrations: string[];
  sync: SyncReport;
}

/**
 * Bring a database up to this release: migrations (Kysely's Migrator), then the menus, permission codes and
 * dictionaries the definitions imply (sync/syncDefinitions.ts), then `afterSync`, all under the start-up lock
 * so instances starting together on one database take turns instead of racing.
 */
export async function prepareDatabase(database: Database, opts: PrepareOptions = {}): Promise<PrepareResult> {
  return withStartupLock(database, async () => {
    const migrations = await migrateToLatest(database.db, database.dialect);
    const sync = await syncShipped(database, opts.resources);
    await opts.afterSync?.();
    return { migrations, sync };
  });
}

const MENU_TITLES: ReadonlyMap<string, { label: string; titles: Record<string, string> }> = new Map(
  SHIPPED_RESOURCES.filter((d) => d.menu).map((d) => [d.menu?.component ?? `crud/${d.name}`, { label: d.label, titles: d.menu?.titles ?? {} }]),
);

/**
 * The other-language titles of a definition's menu row (by its component), while the row keeps the shipped
 * Chinese name; an operator's own name has no translation.
 */
export function shippedMenuTitles(component: string | null | undefined, name: string): Record<string, string> | undefined {
  const shipped = component ? MENU_TITLES.get(component) : undefined;
  return shipped && shipped.label === name ? shipped.titles : undefined;
}

/** The definition sync alone (no lock): for callers already holding it or owning the database. */
export async function syncShipped(database: Pick<Database, 'db' | 'dialect'>, resources: readonly ResourceDef[] = SHIPPED_RESOURCES): Promise<SyncReport> {
  const shipped = shippedDefinitions(resources);
  if (resources !== SHIPPED_RESOURCES) registerShippedPermissionGroups(shipped.permissionGroups);
  return syncDefinitions(database.db, database.dialect, shipped);
}
