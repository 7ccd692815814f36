import type { FastifyInstance } from 'fastify';
import { registerEmailRoutes } from './routes.ts';

/** 系统工具 › 邮件工具: SMTP settings, sending, the mail log (the sender itself is app.ctx.mail, see mailer.ts). */
export function registerEmail(app: FastifyInstance): void {
  registerEmailRoutes(app);
}
