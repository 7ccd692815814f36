import { idCardCheckDigit } from '@app/shared/idcard';
import { basesFromCompany, contractWarnDate, fromIdCard, ratiosFromRateDictionary } from '@app/shared/staffDerivations';
import { companyResource } from '@app/shared/resources/company';
import { staffResource } from '@app/shared/resources/staff';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import type { Db, DialectName } from '../core/db.ts';
import { insertReturningId, nowIso } from '../core/db.ts';
import { apiToDb, rowToApi } from '../crud/rowMapping.ts';

/**
 * A small demo data set for a fresh installation: three client companies, thirty staff with valid ID cards
 * and contracts (some ending within the next weeks, so the contract reminder screens have content), and a
 * few overtime/deduction rows for the current month. Idempotent: rows that exist (by company name, by
 * company + ID card) are left alone. Dates are relative to today (China time).
 */

const DEMO_COMPANIES = [
  { companyName: '北京示例科技有限公司', dispatchCompany: '北京华派人力资源有限公司', serviceType: '劳务派遣', feeType: '按人头', fee: 120, contact: '刘经理', phone: '010-62345678' },
  { companyName: '北京示例物流有限公司', dispatchCompany: '北京众信劳务派遣有限公司', serviceType: '劳务派遣', feeType: '按比例', fee: 300, contact: '陈主管', phone: '010-87654321' },
  { companyName: '北京示例餐饮管理有限公司', dispatchCompany: '北京华派人力资源有限公司', serviceType: '人事代理', feeType: '固定金额', fee: 2000, contact: '赵总', phone: '010-66668888' },
];

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '马', '朱', '胡'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '洋', '艳', '勇', '军', '杰', '娟', '涛', '明', '超', '秀英', '晓东', '海燕', '建国'];
const CENSUS = ['bencheng', 'bennong', 'waicheng', 'wainong', 'bennong_24'];
const REGIONS = ['110101', '110105', '130102', '370102', '410105', '510104'];

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export interface DemoSeedResult {
  companies: number;
  staff: number;
  extras: number;
}

/** Insert the demo rows that are missing. */
export async function seedDemoData(db: Db, dialect: DialectName, today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)): Promise<DemoSeedResult> {
  const result: DemoSeedResult = { companies: 0, staff: 0, extras: 0 };
  await db.transaction().execute(async (trx) => {
    const dictRows = await trx
      .selectFrom('sys_dict_detail as d')
      .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
      .select(['t.name as dict', 'd.label', 'd.value'])
      .where('t.name', 'in', ['dispatch_company', ...CENSUS])
      .execute();
    const dict = (name: string) => dictRows.filter((r) => r.dict === name).map((r) => ({ label: String(r.label), value: String(r.value) }));
    const ownerDept = await trx.selectFrom('sys_dept').select('id').where('name', '=', '业务部').executeTakeFirst();
    const now = nowIso();
    const month = today.slice(0, 7);

    let n = 0;
    for (const [ci, c] of DEMO_COMPANIES.entries()) {
      let row = await trx.selectFrom('accounts_company').selectAll().where('company_name', '=', c.companyName).executeTakeFirst();
      if (!row) {
        const ratio = dict('dispatch_company').find((e) => e.label === c.dispatchCompany)?.value;
        const values = {
          ...c,
          disabledPay: 0,
          settleType: '月结',
          settleDate: '每月25日',
          bamk: '中国工商银行北京分行',
          bankCard: `0200${String(4000000000000 + ci * 7919).padStart(15, '0')}`,
          email: `hr${ci + 1}@example.com`,
          gjjBase: 8000 + ci * 1000,
          yanglaoBase: 7162,
          yilaoBase: 7162,
          yilaoBaseSelf: 7162,
          shiyeBase: 7162,
          gongshangBase: 7162,
          shengyuBase: 7162,
          gongshangRatioCompany: ratio === undefined ? null : Number(ratio),
          deptId: ownerDept ? Number(ownerDept.id) : null,
        };
        const id = await insertReturningId(trx, dialect, 'accounts_company', { ...apiToDb(companyResource, values), create_time: now, update_time: now });
        row = await trx.selectFrom('accounts_company').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        result.companies++;
      }
      const company = rowToApi(companyResource, row as Record<string, unknown>);
      const bases = basesFromCompany(company, dict('dispatch_company'));

      for (let k = 0; k < 10; k++, n++) {
        const born = addDays('1975-01-01', (n * 397) % 9000);
        const first17 = `${REGIONS[n % REGIONS.length]}${born.replace(/-/g, '')}${String(100 + n * 3).padStart(3, '0')}`;
        const idCard = first17 + idCardCheckDigit(first17);
        const exists = await trx.selectFrom('accounts_staff').select('id').where('company_id', '=', company.id as number).where('id_card', '=', idCard).executeTakeFirst();
        if (exists) continue;
        const census = CENSUS[n % CENSUS.length];
        // every fourth contract ends within the next five weeks, one already ended
        const contractEnd = n % 4 === 0 ? addDays(today, 5 + (n % 30)) : n === 7 ? addDays(today, -10) : addDays(today, 200 + n * 20);
        const contractStart = addDays(contractEnd, -3 * 365);
        const contractWarn = contractWarnDate(contractEnd)!;
        const staff = {
          companyId: company.id,
          companyName: company.companyName,
          staffName: SURNAMES[n % SURNAMES.length] + GIVEN[(n * 7) % GIVEN.length],
          nation: n % 9 === 0 ? '回族' : '汉族',
          censusType: census,
          idCard,
          ...fromIdCard(idCard, today),
          marriage: n % 3 === 0 ? '未婚' : '已婚',
          education: ['高中', '大专', '本科', '中专'][n % 4],
          phone: `139${String(10000000 + n * 7331).slice(0, 8)}`,
          address: `北京市朝阳区示例路${n + 1}号`,
          politics: n % 5 === 0 ? '中共党员' : '群众',
          inductionDate: addDays(contractStart, 0),
          dept: ['运营部', '仓储部', '前厅部'][ci],
          job: ['专员', '操作员', '服务员'][ci],
          jobState: n === 7 ? '离职' : '在职',
          salary: 5000 + ((n * 350) % 6000),
          salaryType: '月薪',
          salaryBank: '中国工商银行',
          bankcardNumber: `6222${String(100000000000000 + n * 104729).slice(0, 15)}`,
          taxesType: '工资薪金',
          insureType: '五险一金',
          deduct: n % 3 === 0 ? 1500 : 0,
          dispatchDate: addDays(contractStart, 0),
          insuredState: '已参保',
          insuredTime: addDays(contractStart, 0),
          contractState: n === 7 ? '已到期' : '已签订',
          contractType: '劳务派遣',
          contractDate: addDays(contractStart, -3),
          contractStart,
          contractEnd,
          contractWarn,
          contractWarnState: contractWarn <= today ? '已提醒' : '未提醒',
          ...bases,
          ...ratiosFromRateDictionary(dict(census)),
        };
        await trx
          .insertInto('accounts_staff')
          .values({ ...apiToDb(staffResource, staff), create_time: now, update_time: now })
          .execute();
        result.staff++;
        if (k < 2) {
          const extra = { staffIdCard: idCard, staffName: staff.staffName, staffCompanyId: company.id, staffCompany: company.companyName, phone: staff.phone, month, jiaban: 200 + k * 150, koukuan: k * 50 };
          await trx
            .insertInto('accounts_staff_extra')
            .values({ ...apiToDb(staffExtraResource, extra), create_time: now, update_time: now })
            .execute();
          result.extras++;
        }
      }
    }
  });
  return result;
}
