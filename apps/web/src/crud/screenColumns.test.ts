import { companyResource } from '@app/shared/resources/company';
import { accDepartResource, accInternResource, accSalaryResource, HR_RECORD_RESOURCES } from '@app/shared/resources/hrRecords';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { userResource } from '@app/shared/resources/user';
import { describe, expect, it } from 'vitest';
import { listFields } from './fields';

/** Findings W3 and W12: list columns that were cut or missing, and the new user's default state. */
describe('list columns of the screens (findings W3, W12)', () => {
  it('gives 身份证号 room for 18 characters on every HR record list and on 员工加班扣款', () => {
    for (const def of [...HR_RECORD_RESOURCES, staffExtraResource]) {
      const idCard = listFields(def).find((f) => f.label === '身份证号');
      expect(idCard?.width, def.name).toBeGreaterThanOrEqual(180);
    }
    expect(listFields(accSalaryResource).some((f) => f.name === 'idCard')).toBe(true);
  });

  it('gives the 单位管理 headers their width (结算方式 is not cut to 结算…)', () => {
    const fields = listFields(companyResource);
    for (const name of ['serviceType', 'settleType', 'settleDate', 'feeType', 'contact', 'phone']) {
      const f = fields.find((x) => x.name === name);
      expect(f?.width, name).toBeGreaterThanOrEqual(f!.label.length * 14 + 40);
    }
  });

  it('lists 实习总结 on 实习记录 and 交接内容 on 离职记录 (spec §2)', () => {
    expect(listFields(accInternResource).map((f) => f.label)).toContain('实习总结');
    expect(listFields(accDepartResource).map((f) => f.label)).toContain('交接内容');
  });

  it("makes a new user's 状态 激活 by default", () => {
    expect(userResource.fields.find((f) => f.name === 'enabled')?.defaultValue).toBe(true);
  });
});
