import type { FastifyInstance } from 'fastify';
import { registerDashboardRoutes } from './dashboard.ts';
import { registerModelDataRoutes } from './modelData.ts';
import { registerTaskRoutes } from './taskRoutes.ts';

/** 任务管理, 模型数据 and the dashboard statistics: model tasks on the shared scheduler and what their runs produce. */
export async function registerModelTasks(app: FastifyInstance): Promise<void> {
  registerTaskRoutes(app);
  registerModelDataRoutes(app);
  registerDashboardRoutes(app);
}
