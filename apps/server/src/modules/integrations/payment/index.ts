import type { FastifyInstance } from 'fastify';
import { registerPaymentRoutes } from './routes.ts';

/** 系统工具 › 支付宝工具: settings, test payments, orders and Alipay's callbacks. */
export function registerPayment(app: FastifyInstance): void {
  registerPaymentRoutes(app);
}
