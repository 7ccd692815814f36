import { z } from 'zod';
import { defineContract } from './contract.ts';

/** In-app notices (the header's bell, issue 25 item 2): every user reads and marks only their own. */
const tags = ['通知'] as const;

const page = z.coerce.number({ error: '页码必须是非负整数' }).int('页码必须是非负整数').min(0, '页码必须是非负整数').max(100_000, '页码必须是非负整数');
const size = z.coerce.number({ error: '每页条数必须是1到100的整数' }).int('每页条数必须是1到100的整数').min(1, '每页条数必须是1到100的整数').max(100, '每页条数必须是1到100的整数');

export const notice = z.object({
  id: z.number(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  createTime: z.string().nullable(),
});
export type Notice = z.output<typeof notice>;

export const listNotices = defineContract({
  method: 'GET',
  path: '/api/notices',
  auth: 'user',
  summary: '我的通知（最新在前）与未读数',
  tags,
  query: z.object({
    page: page.optional(),
    size: size.optional(),
    unread: z.enum(['true', 'false'], { error: 'unread 只能是 true 或 false' }).optional(),
  }),
  response: z.object({ content: z.array(notice), totalElements: z.number(), unread: z.number() }),
});

export const markNoticesRead = defineContract({
  method: 'PUT',
  path: '/api/notices/read',
  auth: 'user',
  summary: '标记通知已读（ids 为空：全部）',
  tags,
  log: '标记通知已读',
  body: z.object({ ids: z.array(z.number({ error: 'ID必须是正整数' }).int('ID必须是正整数').min(1, 'ID必须是正整数'), { error: 'ids 必须是ID数组' }).max(1000, '一次最多1000条').optional() }),
  response: z.object({ updated: z.number() }),
});
