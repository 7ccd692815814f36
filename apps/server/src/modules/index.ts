import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerSystem } from './system/index.ts';
import { registerDispatch } from './dispatch/index.ts';
import { registerPayroll } from './payroll/index.ts';
import { registerPayout } from './payout/index.ts';
import { registerIit } from './iit/index.ts';
import { registerSiChanges } from './siChanges/index.ts';
import { registerSiAdjust } from './siAdjust/index.ts';
import { registerStorageModule } from './storage/index.ts';
import { registerTools } from './tools/index.ts';
import { registerEmail } from './integrations/email/index.ts';
import { registerPayment } from './integrations/payment/index.ts';
import { registerModels } from './operations/models/index.ts';
import { registerModelTasks } from './operations/tasks/index.ts';
import { registerDataSources } from './operations/dataSources/index.ts';
import { registerPlainResources } from './plainResources.ts';
import { registerJobs } from './jobs/index.ts';
import { registerNotices } from './notices/index.ts';
import { registerSettlement } from './settlement/index.ts';
import { registerHomeActions } from './home/actions.ts';
import { registerHomeSalaryMonth } from './home/salaryMonth.ts';

/**
 * One encapsulated plugin per business area (fp with `encapsulate: true`: named, its dependencies checked, but
 * its own context): what an area declares on its instance or requests (hooks, request properties) stays with
 * its routes, while the shared concerns (ctx, database, cache, auth, audit, errors, storage, scheduler) are
 * fp plugins on the root that every area inherits. No prefix: the URLs are the spec's.
 */
const area = (name: string, register: (app: FastifyInstance) => unknown, dependencies: string[] = []) =>
  fp(
    async (app: FastifyInstance) => {
      await register(app);
    },
    { name: `area:${name}`, fastify: '5.x', encapsulate: true, dependencies: ['ctx', 'auth', 'audit', 'errors', ...dependencies] },
  );

/** The areas in registration order (the order of the route table and of the OpenAPI document). */
export const AREAS = [
  // 登录, 验证码, 退出, 当前用户
  area('auth', registerAuthRoutes),
  area('system', registerSystem, ['storage']),
  area('dispatch', registerDispatch),
  area('payroll', registerPayroll),
  // Month close I: 结算单, 回款登记, 应收台账, 结算条款, 增值税计税方式
  area('settlement', registerSettlement),
  // 薪资管理 › 代发工资 and 系统工具 › 银行模板 (issue 23)
  area('payout', registerPayout),
  // 薪资管理 › 个税申报 (issue 23 items 4-6)
  area('iit', registerIit),
  // 社保管理 › 增减员 and 系统工具 › 社保模板 (issue 24 item 3)
  area('siChanges', registerSiChanges),
  // 社保管理 › 社保调基 and 社保平账 (issue 24 items 2 and 4)
  area('siAdjust', registerSiAdjust),
  // 系统工具 › 存储管理 and 图床管理
  area('storage', registerStorageModule, ['storage']),
  area('tools', registerTools),
  // 系统工具 › 邮件工具 and 支付宝工具
  area('integrations', (app) => {
    registerEmail(app);
    registerPayment(app);
  }),
  // 数据管理: 模型管理, 任务管理, 模型数据, the dashboard statistics, 数据源管理 and 自定义数据源
  area('operations', async (app) => {
    await registerModels(app);
    await registerModelTasks(app);
    await registerDataSources(app);
  }, ['scheduler', 'storage']),
  // 系统工具 › 定时任务: system jobs and their run log over app.scheduler
  area('jobs', registerJobs, ['scheduler']),
  // the header's bell: in-app notices, and the alerts of failed scheduled runs that fill it
  area('notices', registerNotices, ['scheduler']),
  // 首页: what a clerk must act on across companies (contracts due, unconfirmed salary months)
  area('home', registerHomeActions),
  area('homeMonth', registerHomeSalaryMonth),
  // definitions with a generic-screen `menu` and no module of their own
  area('resources', (app) => {
    registerPlainResources(app);
  }),
];

/** Every business area registers its routes here. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  for (const plugin of AREAS) await app.register(plugin);
}
