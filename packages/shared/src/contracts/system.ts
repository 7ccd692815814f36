import { z } from 'zod';
import { INT_MAX, idListInput, permissionCodes, schemaOf } from '../resource/index.ts';
import { logResource } from '../resources/log.ts';
import { roleResource } from '../resources/role.ts';
import { userResource } from '../resources/user.ts';
import { defineContract } from './contract.ts';
import type { ErrorCode, ErrorParams } from '../errors/catalogue.ts';
import { codedIssue, firstIssueMessage } from '../errors/zodIssues.ts';
import { idSchema, queryId, queryText } from './schemas.ts';

/**
 * 系统管理 and 系统监控 routes written by hand next to the generic resources: the operation and error logs (and a
 * user's own entries), the dictionaries' name -> entries map every select box reads, and the caller's role level.
 * Server: apps/server/src/modules/system (logs.ts, dict.ts, roles.ts); screens: apps/web/src/modules/monitor
 * (LogPage, ErrorLogPage), apps/web/src/modules/user/CenterPage.tsx, apps/web/src/modules/system/UserPage.tsx,
 * apps/web/src/app/dict.ts.
 */

// ---- 日志 ---------------------------------------------------------------------------------------------------

const logTags = ['日志'] as const;
/** Reading the logs is for administrators (the log resource's list codes). */
const LOG_READ = permissionCodes(logResource, 'list');
/** The log resource's own row and list query: the lists answer with its rows, as the generic list would. */
const logQuery = schemaOf(logResource, 'query');
const logPage = z.object({ content: z.array(schemaOf(logResource, 'row')), totalElements: z.number().int() });

export const listLogs = defineContract({ method: 'GET', path: '/api/logs', auth: LOG_READ, summary: '操作日志', tags: logTags, query: logQuery, response: logPage });

/** The list leaves the exception text out; it can be long and is fetched per entry (`errorLogDetail`). */
export const listErrorLogs = defineContract({ method: 'GET', path: '/api/logs/error', auth: LOG_READ, summary: '异常日志', tags: logTags, query: logQuery, response: logPage });

export const errorLogDetail = defineContract({
  method: 'GET',
  path: '/api/logs/error/:id',
  auth: LOG_READ,
  summary: '一条异常日志的异常详情',
  tags: logTags,
  params: z.object({ id: idSchema() }),
  response: z.object({ exception: z.string() }),
});

export const listOwnLogs = defineContract({ method: 'GET', path: '/api/logs/user', auth: 'user', summary: '本人的操作日志', tags: logTags, query: logQuery, response: logPage });

// ---- 字典 ---------------------------------------------------------------------------------------------------

export const dictEntry = z.object({ id: z.number(), label: z.string(), value: z.string(), sort: z.number() });
export type DictEntry = z.infer<typeof dictEntry>;

/** name -> entries (sorted) for each requested dictionary; an unknown name answers an empty list. */
export const dictionaryMap = defineContract({
  method: 'GET',
  path: '/api/dictDetail/map',
  auth: 'user',
  summary: '多个字典的条目（dictName=名称1,名称2）',
  tags: ['字典详情'],
  query: z.object({ dictName: queryText({ code: 'DICT_NAME_REQUIRED' }, 2000) }),
  response: z.record(z.string(), z.array(dictEntry)),
});

// ---- 角色 ---------------------------------------------------------------------------------------------------

/** The caller's highest role level (smallest number); null for a user without a level. */
export const ownRoleLevel = defineContract({
  method: 'GET',
  path: '/api/roles/level',
  auth: 'user',
  summary: '当前用户的角色级别',
  tags: ['角色'],
  response: z.object({ level: z.number().nullable() }),
});

/** Who may list the roles for the user dialog's select: role readers and user managers. */
const USER_CODES = ['USER_ALL', 'USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE'] as const;

export const roleOption = z.object({ id: z.number(), name: z.string(), level: z.number(), dataScope: z.string(), remark: z.string().nullable() });
export type RoleOption = z.infer<typeof roleOption>;

export const allRoles = defineContract({
  method: 'GET',
  path: '/api/roles/all',
  auth: [...permissionCodes(roleResource, 'list'), ...USER_CODES],
  summary: '全部角色（下拉框）',
  tags: ['角色'],
  response: z.array(roleOption),
});

/**
 * `{id, menus: [{id}]}` / `{id, permissions: [{id}]}` (bare ids in the list accepted too) -> the role and the
 * distinct ids; one message for the body as a whole, as the screen shows it.
 */
type RoleAssignmentInput<K extends string> = { id: number | string } & { [P in K]: ({ id: number | string } | number | string)[] };

function roleAssignment<K extends 'menus' | 'permissions'>(key: K, label: string) {
  const roleId = idSchema();
  const ids = idListInput({ code: 'REF_LIST_FORMAT', params: { label } });
  return z
    .unknown()
    .transform((raw, ctx) => {
      const refuse = (code: ErrorCode, params: ErrorParams = {}) => {
        ctx.addIssue(codedIssue(code, params, raw));
        return z.NEVER;
      };
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('BODY_NOT_OBJECT');
      const body = raw as Record<string, unknown>;
      if (body.id === undefined || body.id === null || body.id === '') return refuse('ID_REQUIRED');
      const id = roleId.safeParse(body.id);
      if (!id.success) return refuse('ID_INVALID');
      if (body[key] === undefined) return refuse('FIELD_CHOOSE', { label });
      const list = ids.safeParse(body[key]);
      if (!list.success) {
        // idListInput's own message (malformed list or too many items), with its code
        const m = firstIssueMessage(list.error);
        return typeof m === 'string' ? refuse('REF_LIST_FORMAT', { label }) : refuse(m.code, m.params);
      }
      return { id: id.data, ids: list.data };
    })
    .meta({
      type: 'object',
      required: ['id', key],
      properties: { id: { type: 'integer', minimum: 1, maximum: INT_MAX }, [key]: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: INT_MAX } } } } },
    }) as unknown as z.ZodType<{ id: number; ids: number[] }, RoleAssignmentInput<K>>;
  // (typed input for the web client; the parse itself accepts anything and answers the messages above)
}

/** Changing a role's menus or permissions is editing the role; the caller must also outrank it (server). */
const ROLE_EDIT = permissionCodes(roleResource, 'edit');

/** Replaces the role's menus; answers 204. */
export const assignRoleMenus = defineContract({
  method: 'PUT',
  path: '/api/roles/menu',
  auth: ROLE_EDIT,
  summary: '分配角色菜单',
  tags: ['角色'],
  log: '修改角色菜单',
  body: roleAssignment('menus', '菜单'),
});

/** Replaces the role's permission codes (only codes the caller holds, ADMIN only by ADMIN); answers 204. */
export const assignRolePermissions = defineContract({
  method: 'PUT',
  path: '/api/roles/permission',
  auth: ROLE_EDIT,
  summary: '分配角色权限',
  tags: ['角色'],
  log: '修改角色权限',
  body: roleAssignment('permissions', '权限'),
});

// ---- 用户 ---------------------------------------------------------------------------------------------------

/** The users list's own filters beside the definition's (a department means it and everything below it). */
export const USER_LIST_FILTERS = { deptId: queryId({ code: 'DEPT_FILTER_INVALID' }) };

/** The filtered users as .xlsx, in the list's sort (the same query as the list). */
export const exportUsers = defineContract({
  method: 'GET',
  path: '/api/users/download',
  auth: permissionCodes(userResource, 'export'),
  summary: '导出用户（.xlsx）',
  tags: [userResource.label],
  log: '导出用户数据',
  query: (schemaOf(userResource, 'query') as z.ZodObject).extend(USER_LIST_FILTERS),
});
