import { describe, expect, it } from 'vitest';
import { uniqueTabLabels } from './generatorModel';

describe('代码生成 preview tabs (U18)', () => {
  it('names each file tab uniquely: the file name, or the folders that tell equal names apart', () => {
    const paths = [
      'packages/shared/src/resources/acPayslip.ts',
      'apps/web/src/locales/zh/fields.acPayslip.json',
      'apps/web/src/locales/en/fields.acPayslip.json',
      'apps/web/src/locales/zh/menu.acPayslip.json',
      'apps/web/src/locales/en/menu.acPayslip.json',
      'apps/web/src/modules/acPayslip/AcPayslipPage.tsx',
    ];
    const labels = uniqueTabLabels(paths);
    expect(labels).toEqual(['acPayslip.ts', 'zh/fields.acPayslip.json', 'en/fields.acPayslip.json', 'zh/menu.acPayslip.json', 'en/menu.acPayslip.json', 'AcPayslipPage.tsx']);
    expect(new Set(labels).size).toBe(paths.length);
  });
});
