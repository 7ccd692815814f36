import type { FastifyInstance } from 'fastify';
import { registerCostSummary } from './costSummary.ts';
import { registerDeductionCaps } from './deductionCaps.ts';
import { registerInputChecks } from './inputChecks.ts';
import { registerPayslipDelivery } from './payslipDeliveryRoutes.ts';
import { registerPayslipRoutes } from './payslipRoutes.ts';
import { registerSalaryCorrections } from './salaryCorrections.ts';
import { registerSalaryRoutes } from './salaryRoutes.ts';
import { registerTaxDeductions } from './taxDeductions.ts';
import { registerTaxOpening } from './taxOpening.ts';

/** Payroll: monthly salary flow (generate -> calculate -> confirm), confirm log, salary report, payslips, opening balances, deductions by category. */
export async function registerPayroll(app: FastifyInstance): Promise<void> {
  registerSalaryRoutes(app);
  registerPayslipRoutes(app);
  registerPayslipDelivery(app);
  registerTaxOpening(app);
  registerTaxDeductions(app);
  registerInputChecks(app);
  registerDeductionCaps(app);
  registerCostSummary(app);
  registerSalaryCorrections(app);
}
