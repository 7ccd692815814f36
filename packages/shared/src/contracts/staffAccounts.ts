import { z } from 'zod';
import { INT_MAX, permissionCodes, schemaOf } from '../resource/index.ts';
import { companyResource } from '../resources/company.ts';
import { staffResource } from '../resources/staff.ts';
import { userResource } from '../resources/user.ts';
import { defineContract } from './contract.ts';
import { idSchema } from './schemas.ts';
import { codedText } from '../errors/zodIssues.ts';

/**
 * The dispatch wing's hand-written routes beside the companies' and staff's generic ones: the company picker of
 * every payroll screen, 为员工开通账号 and the contract reminders. Server: apps/server/src/modules/dispatch; screens:
 * apps/web/src/modules/accounts.
 */

const companyCodes = permissionCodes(companyResource, 'list');
const staffListCodes = permissionCodes(staffResource, 'list');

/** Every company the caller may see (the company select of the payroll and dispatch screens), newest first. */
export const allCompanies = defineContract({
  method: 'GET',
  path: '/api/accountsCompany/all',
  auth: companyCodes.length ? companyCodes : 'user',
  summary: '可见的全部单位（下拉框）',
  tags: [companyResource.label],
  response: z.object({ content: z.array(schemaOf(companyResource, 'row')), totalElements: z.number().int() }),
});
export type CompanyRow = z.output<typeof allCompanies.response>['content'][number];

export const MAX_STAFF_ACCOUNTS = 500;
export const STAFF_ACCOUNT_SKIP_REASONS = ['NOT_FOUND', 'NO_ID_CARD', 'ACCOUNT_EXISTS'] as const;
export type SkipReason = (typeof STAFF_ACCOUNT_SKIP_REASONS)[number];

const staffAccountsAnswer = z.object({
  message: z.string(),
  created: z.array(z.object({ staffId: z.number().int(), staffName: z.string(), username: z.string(), password: z.string() })),
  skipped: z.array(
    z.object({
      staffId: z.number().int(),
      // null for a row the caller may not see: its name is not theirs to learn
      staffName: z.string().nullable(),
      reasonCode: z.enum(STAFF_ACCOUNT_SKIP_REASONS),
      reason: z.string(),
    }),
  ),
});
export type StaffAccountsAnswer = z.output<typeof staffAccountsAnswer>;

/**
 * 为员工开通账号: `{ids}` (1..500 staff ids) -> logins named by the ID card, role 普通员工, a one-time password shown
 * once in the answer. Needs a user-creation code (the route's) and a staff-reading code (checked by the handler:
 * `STAFF_ACCOUNT_READ_CODES`). The operation log records the request (the ids), never the answer.
 */
export const createStaffAccounts = defineContract({
  method: 'POST',
  path: '/api/accountsStaff/accounts',
  auth: permissionCodes(userResource, 'create'),
  summary: '为员工开通账号（用户名为身份证号，角色普通员工，一次性密码）',
  log: '为员工开通账号',
  tags: [staffResource.label],
  body: z.object(
    {
      ids: z
        .array(z.unknown(), codedText('STAFF_ACCOUNT_IDS_REQUIRED'))
        .min(1, codedText('STAFF_ACCOUNT_IDS_REQUIRED'))
        .max(MAX_STAFF_ACCOUNTS, codedText('STAFF_ACCOUNT_IDS_TOO_MANY', { max: MAX_STAFF_ACCOUNTS }))
        .pipe(z.array(idSchema({ code: 'STAFF_ACCOUNT_ID_INVALID' })))
        .transform((ids) => [...new Set(ids)])
        .meta({ type: 'array', items: { type: 'integer', minimum: 1, maximum: INT_MAX }, minItems: 1, maxItems: MAX_STAFF_ACCOUNTS }),
    },
    codedText('BODY_NOT_OBJECT'),
  ),
  response: staffAccountsAnswer,
});
/** The second code list 为员工开通账号 needs: reading the staff. */
export const STAFF_ACCOUNT_READ_CODES = staffListCodes;

/** Runs the contract-reminder marking now (the daily system job 合同到期提醒 does it at 01:00 China time). */
export const runContractReminders = defineContract({
  method: 'POST',
  path: '/api/accountsStaff/contractReminders/run',
  auth: ['ACCOUNTSSTAFF_ALL', 'ACCOUNTSSTAFF_EDIT'],
  summary: '立即执行合同到期提醒',
  log: '执行合同到期提醒',
  tags: [staffResource.label],
  response: z.object({
    /** Staff whose reminder date has come and who are now marked 已提醒. */
    reminded: z.number().int(),
    /** Staff whose contract ended before today and is now 已到期. */
    expired: z.number().int(),
  }),
});

/** Staff marked 已提醒, paged and filtered like the staff list, soonest contract end first, in the caller's scope. */
export const listContractReminders = defineContract({
  method: 'GET',
  path: '/api/accountsStaff/contractReminders',
  auth: staffListCodes.length ? staffListCodes : 'user',
  summary: '已提醒的员工（合同即将到期）',
  tags: [staffResource.label],
  query: schemaOf(staffResource, 'query'),
  // the staff rows as the staff list decorates them (their links and derived fields pass as they are)
  response: z.object({ content: z.array(z.looseObject({})), totalElements: z.number().int() }),
});
