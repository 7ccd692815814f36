import type { FastifyInstance } from 'fastify';
import { registerAvatars } from './avatars.ts';
import { registerCacheManager } from './cacheManager.ts';
import { registerDepartments } from './dept.ts';
import { registerDictionaries } from './dict.ts';
import { registerJobs } from './job.ts';
import { registerLogs } from './logs.ts';
import { registerMenus } from './menus.ts';
import { registerMonitor } from './monitor.ts';
import { registerPermissions } from './permissions.ts';
import { registerRoles } from './roles.ts';
import { registerSelfService } from './selfService.ts';
import { registerUsers } from './users.ts';

/** Platform: users, roles, menus, permissions, departments, positions, dictionaries, logs. */
export async function registerSystem(app: FastifyInstance): Promise<void> {
  registerDictionaries(app);
  registerUsers(app);
  registerSelfService(app);
  registerAvatars(app);
  registerRoles(app);
  registerMenus(app);
  registerPermissions(app);
  registerDepartments(app);
  registerJobs(app);
  registerLogs(app);
  registerCacheManager(app);
  registerMonitor(app);
}
