import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '@app/shared/resource/types';
import { registerExcelRoutes } from '../crud/excel.ts';
import { registerResource } from '../crud/registerResource.ts';
import { SHIPPED_RESOURCES } from '../sync/index.ts';

/**
 * Plain resources need no module: a definition with a `menu` on the generic screen (`crud/<name>`) that no
 * module registered gets the generic routes here (list, get, create, update, delete, and import/export/template
 * when it has `excel`). Runs after the modules, so a module that registers a definition itself keeps it.
 */
export function registerPlainResources(app: FastifyInstance, resources: readonly ResourceDef[] = SHIPPED_RESOURCES): string[] {
  const registered: string[] = [];
  for (const def of resources) {
    if (!def.menu || (def.menu.component ?? `crud/${def.name}`) !== `crud/${def.name}`) continue;
    if (app.hasRoute({ method: 'GET', url: `/api/${def.name}` })) continue;
    const resource = registerResource(app, def);
    if (def.excel) registerExcelRoutes(app, resource);
    registered.push(def.name);
  }
  return registered;
}
