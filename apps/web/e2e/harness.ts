/**
 * Browser-test harness: the real server (buildApp) on 127.0.0.1 with a fresh SQLite file, seeded, serving the
 * built web app, and Debian chromium driven by playwright-core. Console errors and page errors are collected
 * per page so tests can assert a clean run.
 */
import { execSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import type { AppConfig } from '../../server/src/config.ts';
import { seedDatabase } from '../../server/src/seed/index.ts';

const WEB_DIR = path.resolve(import.meta.dirname, '..');
const REPO_DIR = path.resolve(WEB_DIR, '../..');
const DIST_DIR = path.join(WEB_DIR, 'dist');
export const SCREENSHOT_DIR = path.join(REPO_DIR, 'screenshots');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

export const ADMIN = { username: 'admin', password: 'admin123' };

export interface PageErrors {
  console: string[];
  page: string[];
}

export interface Harness {
  baseUrl: string;
  app: FastifyInstance;
  browser: Browser;
  /** A new page in its own context (fresh cookies/storage), with error collection. */
  newPage(opts?: { width?: number; height?: number; locale?: string }): Promise<Page>;
  /** Errors seen on a page so far (console.error, failed resource loads, uncaught exceptions). */
  errorsOf(page: Page): PageErrors;
  close(): Promise<void>;
}

/** Build apps/web once when dist is missing (or E2E_REBUILD=1). */
export function ensureWebBuild(): void {
  if (!process.env.E2E_REBUILD && fs.existsSync(path.join(DIST_DIR, 'index.html'))) return;
  // vitest sets NODE_ENV=test, which would make vite bundle React's development build
  execSync('npm run build -w apps/web', { cwd: REPO_DIR, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

/** Start server + chromium. Call close() in afterAll. */
export async function startHarness(): Promise<Harness> {
  ensureWebBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-'));
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    dbUrl: `sqlite:${path.join(tmp, 'app.db')}`,
    redisUrl: undefined,
    cachePrefix: `e2e:${crypto.randomBytes(4).toString('hex')}:`,
    captchaEnabled: false,
    demoData: false,
    dataDir: tmp,
    production: false,
    webDist: DIST_DIR,
    tokenTtlSeconds: 3600,
    rememberMeTtlSeconds: 7 * 24 * 3600,
    loginRateLimitPerMinute: 1000,
    logRequests: false,
    scheduler: false,
    // the stand-in SMTP server of the integrations test listens on this machine (an on-host relay)
    smtpHostAllowlist: ['127.0.0.1'],
    smtpTlsRejectUnauthorized: false,
  };
  let app: FastifyInstance;
  let front: http.Server | null = null;
  try {
    app = await buildApp(config);
  } catch (err) {
    // The server could not mount the built web app (its static routes clashed with its route guard):
    // serve dist from a small front server instead so the browser tests still run against the real API.
    console.warn(`[e2e] server cannot serve apps/web/dist (${(err as Error).message}); using the harness front server`);
    app = await buildApp({ ...config, webDist: undefined });
  }
  await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const apiPort = (app.server.address() as AddressInfo).port;
  let port = apiPort;
  if (!config.webDist || !(await servesWeb(apiPort))) {
    front = await startFrontServer(apiPort);
    port = (front.address() as AddressInfo).port;
  }
  const baseUrl = `http://127.0.0.1:${port}`;

  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`chromium not found at ${CHROMIUM_PATH}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const contexts: BrowserContext[] = [];
  const errors = new WeakMap<Page, PageErrors>();

  return {
    baseUrl,
    app,
    browser,
    async newPage(opts = {}) {
      const context = await browser.newContext({
        viewport: { width: opts.width ?? 1366, height: opts.height ?? 800 },
        locale: opts.locale ?? 'zh-CN',
        baseURL: baseUrl,
      });
      contexts.push(context);
      const page = await context.newPage();
      const e: PageErrors = { console: [], page: [] };
      errors.set(page, e);
      page.on('console', (msg) => {
        if (msg.type() === 'error') e.console.push(`${msg.text()} @ ${msg.location().url ?? ''}`);
      });
      page.on('pageerror', (err) => e.page.push(err.stack ?? err.message));
      return page;
    },
    errorsOf(page) {
      return errors.get(page) ?? { console: [], page: [] };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      if (front) await new Promise((r) => front?.close(r));
      await app.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Log in through the login form (captcha checking is off in the harness; any code passes). */
export async function login(page: Page, username = ADMIN.username, password = ADMIN.password): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByPlaceholder(/账号|Username|Usuario|ユーザー名/).fill(username);
  await page.getByPlaceholder(/^(密码|Password|Contraseña|パスワード)$/).fill(password);
  await page.getByPlaceholder(/验证码|Captcha|Código|認証コード/).fill('1234');
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 15_000 });
}

/**
 * Log in with a password an administrator issued (new user, employee login): the app shows only the dialog that
 * asks for a new one (U23); change it there, wait for the logout that follows and log in again with `newPassword`.
 * `shot` names a screenshot of the dialog.
 */
export async function loginWithIssuedPassword(page: Page, username: string, issued: string, newPassword: string, shot?: string): Promise<void> {
  await login(page, username, issued);
  const dialog = page.getByTestId('password-form');
  await dialog.waitFor({ timeout: 15_000 });
  await page.getByTestId('initial-password-hint').waitFor();
  if (shot) {
    // the dialog fades in: a picture taken during the animation shows it washed out
    await page.locator('.ant-modal').evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await page.locator('.ant-modal-mask').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished))).catch(() => undefined);
    await screenshot(page, shot);
  }
  await dialog.locator('input').nth(0).fill(issued);
  await dialog.locator('input').nth(1).fill(newPassword);
  await dialog.locator('input').nth(2).fill(newPassword);
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await page.waitForURL((url) => url.pathname.startsWith('/login'), { timeout: 15_000 });
  await login(page, username, newPassword);
}

/** Save a full-page screenshot to /work/main/screenshots/<name>.png and return its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// ---- what the browser tests share -------------------------------------------------------------------------

/**
 * The harness and one page logged in as admin (1440×900 unless told; `{}` gives newPage's default), for a test
 * file's beforeAll:
 * `beforeAll(async () => { ({ h, page } = await startLoggedIn()); }, 120_000)`, then `afterAll(() => h?.close())`.
 */
export async function startLoggedIn(pageOptions: Parameters<Harness['newPage']>[0] = { width: 1440, height: 900 }): Promise<{ h: Harness; page: Page }> {
  const h = await startHarness();
  const page = await h.newPage(pageOptions);
  await login(page);
  return { h, page };
}

/** The screen of the active tab (screens of other tabs stay mounted, hidden). */
export const activeScreen = (page: Page): Locator => page.locator('.app-screen[data-active="true"]');
/** The top-most open dialog. */
export const openDialog = (page: Page): Locator => page.locator('.ant-modal-wrap:visible .ant-modal').last();
/** Notifications holding the text. */
export const notice = (page: Page, text: string | RegExp): Locator => page.locator('.ant-notification-notice', { hasText: text });
/**
 * Wait until a notification holding the text is shown. When it does not come, the failure says which notices and
 * which dialog were on screen instead (a refusal's reason, a dialog still open), not just "did not succeed in time".
 */
export async function expectNotice(page: Page, text: string | RegExp, timeout = 10_000): Promise<void> {
  try {
    await expect.poll(() => notice(page, text).count(), { timeout }).toBeGreaterThan(0);
  } catch (err) {
    const shown = await page.locator('.ant-notification-notice, .ant-message-notice').allTextContents();
    const dialog = (await page.locator('.ant-modal-wrap:visible .ant-modal').count()) ? await openDialog(page).textContent() : null;
    throw new Error(`no notice "${String(text)}" within ${timeout} ms; notices shown: ${JSON.stringify(shown)}; open dialog: ${JSON.stringify(dialog?.slice(0, 300) ?? null)}`, { cause: err });
  }
}
/**
 * Click `trigger` until `target` shows (or, with `'hidden'`, until it has gone). A click that lands while the page
 * under it re-renders (a row replaced by its refreshed copy, a dialog still zooming in) does nothing: it is made
 * again, three times at most. Reached slowly after an earlier click, the state is taken as it is (the trigger is not
 * clicked through a mask that now covers it).
 */
export async function clickUntil(trigger: Locator, target: Locator, state: 'visible' | 'hidden' = 'visible'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && (await target.isVisible()) === (state === 'visible')) return;
    await trigger.click();
    try {
      await target.waitFor({ state, timeout: 8000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}
/** Click `trigger` until the top-most dialog holds `testId`; that dialog. */
export async function openDialogBy(page: Page, trigger: Locator, testId: string): Promise<Locator> {
  const dialog = openDialog(page);
  await clickUntil(trigger, dialog.getByTestId(testId));
  return dialog;
}
/** Click `trigger`, which asks for a confirmation (Modal.confirm), and confirm it until the confirmation has gone. */
export async function confirmBy(page: Page, trigger: Locator): Promise<void> {
  const confirmation = page.locator('.ant-modal-confirm:visible').last();
  await clickUntil(trigger, confirmation);
  await clickUntil(confirmation.locator('.ant-btn-primary'), confirmation, 'hidden');
}
/** Wait until no dialog is open (nor still closing: a closing dialog's mask takes the clicks meant for the page). */
export async function dialogsClosed(page: Page, timeout = 15_000): Promise<void> {
  await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout }).toBe(0);
}
/** Notices sit over the top-right corner (and stay while hovered): move away and let them go. */
export async function clearNotices(page: Page): Promise<void> {
  await page.mouse.move(700, 780);
  await expect.poll(() => page.locator('.ant-notification-notice').count(), { timeout: 10_000 }).toBe(0);
}
/** The first table row of `scope` holding the text. */
export const tableRow = (scope: Locator, text: string): Locator => scope.locator('tr.ant-table-row', { hasText: text }).first();
/** Go to an app path and wait for its screen (the element with `testId`) and the network to settle; the active screen. */
export async function openScreen(page: Page, path: string, testId: string, timeout = 15_000): Promise<Locator> {
  await page.goto(path);
  const s = activeScreen(page);
  await s.getByTestId(testId).first().waitFor({ state: 'visible', timeout });
  await page.waitForLoadState('networkidle');
  return s;
}
/**
 * Pick `option` in the select or tree select that `trigger` opens. A dropdown opened while its dialog still zooms
 * in can be measured hidden and the click lost: it is opened again, three times at most.
 */
export async function choose(page: Page, trigger: Locator, option: string | RegExp): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await trigger.click();
    const dropdown = page.locator('.ant-select-dropdown:visible, .ant-tree-select-dropdown:visible').last();
    const item = dropdown.locator('.ant-select-item-option, .ant-select-tree-node-content-wrapper', { hasText: option }).first();
    try {
      await item.click({ timeout: 4000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.waitForTimeout(300);
    }
  }
}

/**
 * Type `value` into an antd date or month picker's input and commit it with Enter. What counts is the value the
 * picker shows once focus has left it (the one it holds, not merely the text typed), so that is what is checked;
 * a keystroke lost on a busy machine is typed again, three times at most.
 */
export async function typeDate(input: Locator, value: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await input.fill(value);
    await input.press('Enter');
    await input.blur();
    try {
      await expect.poll(() => input.inputValue(), { timeout: 3000 }).toBe(value);
      // the panel closes with an animation; a click or a screenshot taken meanwhile would meet it
      await expect.poll(() => input.page().locator('.ant-picker-dropdown:visible').count(), { timeout: 3000 }).toBe(0);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Console errors without the browser's favicon request (the app has none). */
export const withoutFavicon = (errors: string[]): string[] => errors.filter((e) => !/favicon/.test(e));

// ---- fallback front server (static dist + SPA fallback + proxy to the API) -------------------------------

const API_PREFIX = /^\/(api|auth|avatar|file|taskManagement|dataOrigin|dataManagement|customDatasource|ModelManageMent|instrument|algorithm|qiniu|aliPay)(\/|\?|$)/;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

async function servesWeb(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/login`);
    return res.ok && (res.headers.get('content-type') ?? '').includes('text/html');
  } catch {
    return false;
  }
}

function startFrontServer(apiPort: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (API_PREFIX.test(url)) {
      const upstream = http.request({ host: '127.0.0.1', port: apiPort, path: url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
      return;
    }
    const pathname = decodeURIComponent(url.split('?')[0]);
    const file = path.join(DIST_DIR, pathname);
    const isFile = file.startsWith(DIST_DIR + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
    const target = isFile ? file : path.join(DIST_DIR, 'index.html');
    res.writeHead(200, { 'content-type': MIME[path.extname(target)] ?? 'application/octet-stream' });
    fs.createReadStream(target).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A staff member with every base and ratio filled (Beijing figures), as the browser tests create one. */
export function staffBody(companyId: number, staffName: string, card: string, salary: number): Record<string, unknown> {
  const base = 7162;
  return {
    companyId,
    staffName,
    censusType: 'bencheng',
    idCard: card,
    phone: '13800138000',
    inductionDate: '2024-01-02',
    jobState: '在职',
    salary,
    taxesType: '工资薪金',
    insureType: '五险一金',
    deduct: 1000,
    dispatchDate: '2024-01-02',
    insuredState: '已参保',
    insuredTime: '2024-01-02',
    contractState: '已签订',
    contractType: '固定期限',
    contractStart: '2024-01-02',
    contractEnd: '2028-01-01',
    gjjBase: 8000,
    gjjRatio: 0.12,
    yanglaoBase: base,
    yanglaoRatioCompany: 0.16,
    yanglaoRatioSelf: 0.08,
    yiliaoBase: base,
    yiliaoBaseSelf: base,
    yiliaoRatioCompany: 0.098,
    yiliaoRatioSelf: 0.02,
    shiyeBase: base,
    shiyeRatioCompany: 0.005,
    shiyeRatioSelf: 0.005,
    gongshangBase: base,
    gongshangRatioCompany: 0.004,
    shengyuBase: base,
    shengyuRatioCompany: 0,
  };
}
