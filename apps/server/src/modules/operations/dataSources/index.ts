import type { FastifyInstance } from 'fastify';
import { registerDataSourceRoutes } from './routes.ts';

export { openDataSource } from './read.ts';
export { addDataSourceDeleteGuard } from './routes.ts';

/** Data sources and custom data sources (spec §7 "Data"). */
export async function registerDataSources(app: FastifyInstance): Promise<void> {
  registerDataSourceRoutes(app);
}
