import type { FastifyInstance } from 'fastify';
import { registerPayslipRoutes } from './payslipRoutes.ts';
import { registerSalaryRoutes } from './salaryRoutes.ts';

/** Payroll: monthly salary flow (generate -> calculate -> confirm), confirm log, salary report, payslips. */
export async function registerPayroll(app: FastifyInstance): Promise<void> {
  registerSalaryRoutes(app);
  registerPayslipRoutes(app);
}
