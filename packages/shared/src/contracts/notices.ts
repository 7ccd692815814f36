import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { pageNumber, pageSize } from './schemas.ts';

/** In-app notices (the header's bell, issue 25 item 2): every user reads and marks only their own. */
const tags = ['通知'] as const;

const page = pageNumber();
const size = pageSize(100);

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
    unread: z.enum(['true', 'false'], codedText('FLAG_TRUE_FALSE', { label: 'unread' })).optional(),
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
  body: z.object({ ids: z.array(z.number(codedText('ID_INVALID')).int(codedText('ID_INVALID')).min(1, codedText('ID_INVALID')), codedText('ID_LIST_INVALID', { label: 'ids' })).max(1000, codedText('AT_MOST_AT_ONCE', { max: 1000 })).optional() }),
  response: z.object({ updated: z.number() }),
});
