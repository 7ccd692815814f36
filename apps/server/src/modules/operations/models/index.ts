import type { FastifyInstance } from 'fastify';
import { seedBuiltinModels } from './modelStore.ts';
import { registerModelRoutes } from './routes.ts';

/** 模型管理: the built-in catalogue (seeded when missing at every start) and /ModelManageMent/*. */
export async function registerModels(app: FastifyInstance): Promise<void> {
  registerModelRoutes(app);
  app.addHook('onReady', async () => {
    await seedBuiltinModels(app);
  });
}
