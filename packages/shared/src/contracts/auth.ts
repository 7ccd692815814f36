import { z } from 'zod';
import { defineContract } from './contract.ts';
import { safeText } from './schemas.ts';
import { SESSION_ROUTES } from './sessionRoutes.ts';
import { codedText } from '../errors/zodIssues.ts';

/**
 * 登录 (spec §7): the captcha, the RSA public key the password is encrypted with, login, the current user and
 * logout. Server: apps/server/src/modules/auth/routes.ts; web: apps/web/src/app/auth.tsx, app/crypto.ts,
 * pages/Login.tsx (through `callRoute`, see sessionRoutes.ts for why).
 */
const tags = ['登录'] as const;

/**
 * The user as the web app sees it after login and from /auth/info (never a hash or a secret). Strict: the server
 * sends these answers without a second check (they are built by `userInfo` and typed by this schema), and the
 * tests, which do check them, fail on a field the handler returns but this schema does not state.
 */
export const currentUserAnswer = z.strictObject({
  id: z.number(),
  username: z.string(),
  cname: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  avatar: z.string().nullable(),
  dept: z.string().nullable(),
  deptId: z.number().nullable(),
  job: z.string().nullable(),
  jobId: z.number().nullable(),
  enabled: z.boolean(),
  /** The password was issued by an administrator and must be changed before anything else. */
  mustChangePassword: z.boolean(),
  createTime: z.string().nullable(),
  /** Permission codes; ['ROLE_SYSTEM_DEFAULT'] when the user holds none. */
  roles: z.array(z.string()),
  roleNames: z.array(z.string()),
  level: z.number().nullable(),
});
export type CurrentUserAnswer = z.infer<typeof currentUserAnswer>;

/** An SVG captcha as a data URL and the key its answer is kept under. */
export const captcha = defineContract({
  ...SESSION_ROUTES.captcha,
  summary: '图形验证码',
  tags,
  response: z.object({ img: z.string(), uuid: z.string() }),
});

export const loginPublicKey = defineContract({
  ...SESSION_ROUTES.publicKey,
  summary: '登录密码加密用的 RSA 公钥',
  tags,
  response: z.object({ publicKey: z.string(), algorithm: z.literal('RSA-OAEP-256') }),
});

/** Every field optional: the handler says which one is missing, in the order the form shows them. */
const loginBody = z
  .looseObject({
    username: safeText('用户名', 255).optional(),
    password: z.string().max(4096).optional().meta({ description: 'RSA-OAEP-256 加密后的密码（Base64）' }),
    uuid: z.string().max(100).optional(),
    code: z.string().max(20).optional(),
    rememberMe: z.union([z.boolean(), z.string().max(5)]).optional(),
    session: z
      .enum(['cookie', 'token'], codedText('AUTH_SESSION_MODE'))
      .optional()
      .meta({ description: 'cookie：令牌放入 HttpOnly Cookie（网页端），应答不含令牌；token（默认）：应答返回令牌，用 Authorization: Bearer 调用' }),
  })
  .optional();

export const login = defineContract({
  ...SESSION_ROUTES.login,
  summary: '登录',
  tags,
  log: '用户登录',
  body: loginBody,
  /** `token` only for session 'token' (with 'cookie' it travels in the HttpOnly cookie). */
  response: z.strictObject({ token: z.string().optional(), expiresAt: z.string(), user: currentUserAnswer }),
});

export const currentUser = defineContract({
  ...SESSION_ROUTES.currentUser,
  summary: '当前用户',
  tags,
  beforePasswordChange: true,
  response: currentUserAnswer,
});

export const logout = defineContract({
  ...SESSION_ROUTES.logout,
  summary: '退出登录',
  tags,
  log: '用户退出',
  beforePasswordChange: true,
  response: z.object({}),
});
