import type { FastifyInstance } from 'fastify';
import { registerGenerator } from './generator/routes.ts';
import { registerSqlMonitor } from './sqlMonitor/routes.ts';

/** 系统工具: code generator and SQL monitor (the API docs live in crud/apiDocs.ts). */
export async function registerTools(app: FastifyInstance): Promise<void> {
  registerGenerator(app);
  registerSqlMonitor(app);
}
