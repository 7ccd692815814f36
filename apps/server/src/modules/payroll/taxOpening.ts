import type { FastifyInstance } from 'fastify';
import { taxOpeningResource } from '@app/shared/resources/taxOpening';
import { validationError } from '../../core/errors.ts';
import { registerAgentScopedResource } from './agentScope.ts';

/**
 * 期初累计数据 (finding P3): year-to-date tax figures per worker, withholding agent and year, entered or imported
 * from Excel, that the monthly calculation continues from (scoped by withholding agent: agentScope.ts).
 */
export function registerTaxOpening(app: FastifyInstance): void {
  registerAgentScopedResource(app, taxOpeningResource, {
    forbiddenCode: 'TAX_OPENING_AGENT_FORBIDDEN',
    templateHints: { throughMonth: '本数据截至的月份，如 2025-08' },
    check: (values) => {
      const year = Number(values.taxYear);
      if (typeof values.throughMonth === 'string' && Number(values.throughMonth.slice(0, 4)) !== year) {
        throw validationError({ throughMonth: { code: 'TAX_OPENING_MONTH_OUTSIDE_YEAR', params: { year } } });
      }
      if (Number(values.months) > Number(String(values.throughMonth ?? '').slice(5, 7))) {
        throw validationError({ months: { code: 'TAX_OPENING_MONTHS_TOO_MANY' } });
      }
    },
  });
}
