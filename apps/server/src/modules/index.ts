import type { FastifyInstance } from 'fastify';
import { registerSystem } from './system/index.ts';
import { registerDispatch } from './dispatch/index.ts';
import { registerPayroll } from './payroll/index.ts';

/** Every business area registers its routes here. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await registerSystem(app);
  await registerDispatch(app);
  await registerPayroll(app);
}
