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
    forbiddenMessage: '无权维护该派遣单位的期初数据',
    templateHints: { throughMonth: '本数据截至的月份，如 2025-08' },
    check: (values) => {
      const year = Number(values.taxYear);
      if (typeof values.throughMonth === 'string' && Number(values.throughMonth.slice(0, 4)) !== year) {
        throw validationError({ throughMonth: `截至月份应在纳税年度${year}年内` });
      }
      if (Number(values.months) > Number(String(values.throughMonth ?? '').slice(5, 7))) {
        throw validationError({ months: '累计任职受雇月份数不能超过截至月份的月数' });
      }
    },
  });
}
