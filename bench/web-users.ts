/**
 * Issue 3: the web app's weight and the users screen's speed, in headless chromium against the real server
 * (buildApp serving the built apps/web/dist over HTTP on 127.0.0.1) with 100,000 users in a throwaway database.
 *
 * 1. gzip size of the JavaScript the login page loads (target < 300 KB) and of the extra chunks the first
 *    screen after login loads (target: screens are code-split: those chunks exist and the login page did not
 *    load them), and of the users screen's own chunks;
 * 2. navigation -> usable /system/user (the first page's rows rendered and the pagination showing the total):
 *    the median of first, cold navigations (each in a fresh browser context, empty HTTP cache) and of warm ones
 *    (target < 1 s), with their request waterfalls, the renderer main thread's CPU time, the time the screen
 *    takes when opened from the menu of a running app, and the API times of the calls the screen makes.
 *
 * `node --import tsx bench/web-users.ts`. BENCH_USERS (default 100000), BENCH_NAVIGATIONS (default 7), BENCH_COLD (default 9),
 * WEB_DIST (measure another build; otherwise apps/web/dist, built when missing), BENCH_VERBOSE=1 (every
 * request in the waterfalls), CHROMIUM_PATH, and BENCH_PG_URL / BENCH_MYSQL_URL as for users-list.ts.
 * Wall-clock figures depend on what else the machine runs: the load average is printed with them.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, type BrowserContext, type CDPSession, type Page, type Response, chromium } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { configFromEnv } from '../apps/server/src/config.ts';
import { encryptLoginPassword } from '../apps/server/src/core/auth/keys.ts';
import { csrfTokenFor } from '../apps/server/src/core/auth/sessionCookie.ts';
import { verifyToken } from '../apps/server/src/core/auth/tokens.ts';
import { ADMIN, CHROMIUM_ARGS, CHROMIUM_PATH, ensureWebBuild, login } from '../apps/web/e2e/harness.ts';
import { benchUserCount, openBenchDatabase, seedBenchUsers } from './_seedUsers.ts';

const USERS = benchUserCount();
const NAVIGATIONS = Number(process.env.BENCH_NAVIGATIONS ?? 7);
const COLD_VISITS = Number(process.env.BENCH_COLD ?? 9);
const USER_SCREEN = '/system/user'; // menu 系统管理 (system) > 用户管理 (user), apps/server/src/seed/menus.ts
const LOGIN_TARGET_KB = 300;
const USABLE_TARGET_MS = 1000;
const DIST_DIR = path.resolve(process.env.WEB_DIST ?? path.join(import.meta.dirname, '../apps/web/dist'));
const VIEWPORT = { width: 1366, height: 800 };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (x: number) => `${Math.round(x)} ms`;
const load = () => os.loadavg()[0].toFixed(1);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Debian's chromium may be being installed by apt right now: wait for it (up to 10 minutes). */
async function waitForChromium(): Promise<void> {
  const until = Date.now() + 10 * 60_000;
  let told = false;
  while (!fs.existsSync(CHROMIUM_PATH)) {
    if (Date.now() > until) throw new Error(`chromium not found at ${CHROMIUM_PATH}`);
    if (!told) console.log(`waiting for ${CHROMIUM_PATH} (apt may be installing it)...`);
    told = true;
    await new Promise((r) => setTimeout(r, 5000));
  }
}

// ---- 1. JavaScript weight -----------------------------------------------------------------------------------

interface JsFile {
  url: string;
  raw: number;
  gzip: number;
}

/** Every JavaScript file a page receives, with its raw and gzip -9 size (the server itself sends them uncompressed). */
function collectJs(page: Page): { files: Map<string, JsFile>; settled: () => Promise<void> } {
  const files = new Map<string, JsFile>();
  const pending: Promise<void>[] = [];
  page.on('response', (res: Response) => {
    const url = new URL(res.url());
    const isJs = res.request().resourceType() === 'script' || url.pathname.endsWith('.js');
    if (!isJs || files.has(url.pathname)) return;
    pending.push(
      res
        .body()
        .then((body) => void files.set(url.pathname, { url: url.pathname, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length }))
        .catch(() => undefined),
    );
  });
  return { files, settled: async () => void (await Promise.all(pending)) };
}

const sum = (files: Iterable<JsFile>, k: 'raw' | 'gzip') => [...files].reduce((n, f) => n + f[k], 0);

function largest(files: Iterable<JsFile>, n: number): string {
  return [...files]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, n)
    .map((f) => `${path.basename(f.url)} ${kb(f.gzip)}`)
    .join(', ');
}

/** Open the users screen through the sidebar menu (系统管理 > 用户管理), as a user would. */
async function openUsersFromMenu(page: Page): Promise<void> {
  const sider = page.locator('.app-sider');
  const item = sider.getByText('用户管理', { exact: true });
  if (!(await item.isVisible())) await sider.getByText('系统管理', { exact: true }).click();
  await item.click();
}

async function measureBundles(browser: Browser, baseUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN', baseURL: baseUrl });
  const page = await context.newPage();
  const { files, settled } = collectJs(page);

  await page.goto('/login');
  await page.getByTestId('login-submit').waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await settled();
  const loginFiles = new Map(files);

  await login(page, ADMIN.username, ADMIN.password);
  await page.waitForURL((u) => u.pathname !== '/' && !u.pathname.startsWith('/login'));
  const firstScreenPath = new URL(page.url()).pathname;
  await page.locator('.app-screen[data-active="true"]').waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await settled();
  const afterLogin = [...files.values()].filter((f) => !loginFiles.has(f.url));

  const beforeUsers = new Set(files.keys());
  await openUsersFromMenu(page);
  await page.waitForURL((u) => u.pathname === USER_SCREEN);
  await page.locator('.app-screen[data-active="true"] [data-testid="user-page"] .ant-table-row').first().waitFor();
  await page.waitForLoadState('networkidle');
  await settled();
  const userScreen = [...files.values()].filter((f) => !beforeUsers.has(f.url));
  await context.close();

  const loginGzip = sum(loginFiles.values(), 'gzip');
  const split = afterLogin.length > 0 && userScreen.length > 0;
  console.log(
    `login page JS: ${kb(loginGzip)} gzip (${kb(sum(loginFiles.values(), 'raw'))} raw) in ${loginFiles.size} files (target < ${LOGIN_TARGET_KB} KB gzip) ${loginGzip < LOGIN_TARGET_KB * 1024 ? 'OK' : 'MISSED'}`,
  );
  console.log(`  largest: ${largest(loginFiles.values(), 5)}`);
  console.log(`first screen after login (${firstScreenPath}), extra JS: ${kb(sum(afterLogin, 'gzip'))} gzip (${kb(sum(afterLogin, 'raw'))} raw) in ${afterLogin.length} chunks`);
  console.log(`  largest: ${largest(afterLogin, 5)}`);
  console.log(`${USER_SCREEN} then opened from the menu, extra JS: ${kb(sum(userScreen, 'gzip'))} gzip in ${userScreen.length} chunks (${largest(userScreen, 4)})`);
  console.log(`screens code-split (the login page loads none of these chunks; each screen loads its own): ${split ? 'OK' : 'MISSED'}`);
}

// ---- 2. navigation -> usable users table ------------------------------------------------------------------------

/**
 * Installed before any page script. `__watchUsable()` records `performance.now()` when the users table next
 * shows the first page's rows with the pagination showing the total (`__domReadyAt`), and after the frame that
 * shows it (`__usableAt`); it runs at once for page loads, and again before an in-app navigation. A string,
 * not a function: tsx would wrap a function's inner functions in an `__name` helper the page does not have.
 */
function usableProbe(rows: number, total: number): string {
  return `(() => {
    let observer = null;
    const check = () => {
      if (window.__domReadyAt !== undefined) return;
      const screen = document.querySelector('.app-screen[data-active="true"] [data-testid="user-page"]');
      if (!screen) return;
      const shown = screen.querySelectorAll('.ant-table-tbody tr.ant-table-row').length;
      const totalText = screen.querySelector('.ant-pagination-total-text');
      if (shown < ${rows} || !totalText || !(totalText.textContent || '').replace(/[^0-9]/g, '').includes('${total}')) return;
      window.__domReadyAt = performance.now();
      observer.disconnect();
      // the frame that shows it: the next animation frame, once that frame's task is done
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { window.__usableAt = performance.now(); };
        ch.port2.postMessage(null);
      });
    };
    window.__watchUsable = () => {
      window.__domReadyAt = undefined;
      window.__usableAt = undefined;
      if (observer) observer.disconnect();
      observer = new MutationObserver(check);
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    };
    window.__watchUsable();
  })();`;
}

interface Navigation {
  usable: number;
  domReady: number;
  /** CPU time of the renderer's main thread for this document, read when the table was usable. */
  cpu: number;
  requests: { url: string; start: number; end: number }[];
}

async function waitUsable(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined, undefined, { timeout: 30_000, polling: 50 });
  } catch (err) {
    const seen = await page.evaluate(() => document.querySelector('#root')?.textContent?.slice(0, 300)).catch(() => '');
    throw new Error(`the users table did not become usable at ${page.url()}; the page shows: ${seen}`, { cause: err });
  }
}

const metricSessions = new WeakMap<Page, CDPSession>();

/** Chromium's performance metrics for the page, enabled before its navigations (they count from enabling / the navigation). */
async function metricsOf(page: Page): Promise<CDPSession> {
  let cdp = metricSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    metricSessions.set(page, cdp);
  }
  return cdp;
}

async function threadTime(page: Page): Promise<number> {
  const { metrics } = await (await metricsOf(page)).send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
}

async function navigate(page: Page): Promise<Navigation> {
  await metricsOf(page);
  await page.goto(USER_SCREEN, { waitUntil: 'commit' });
  await waitUsable(page);
  const cpu = await threadTime(page);
  const nav = await page.evaluate(() => {
    const w = window as unknown as { __usableAt: number; __domReadyAt: number };
    const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest' || /\.js$/.test(new URL(e.name).pathname))
      .map((e) => ({ url: new URL(e.name).pathname + new URL(e.name).search, start: e.startTime, end: e.responseEnd }));
    return { usable: w.__usableAt, domReady: w.__domReadyAt, requests };
  });
  return { ...nav, cpu };
}

/** From a click on 用户管理 in the menu of a loaded app (on the dashboard) to the usable table. */
async function navigateInApp(page: Page): Promise<number> {
  await page.goto('/dashboard');
  await page.locator('.app-screen[data-active="true"]').first().waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  const sider = page.locator('.app-sider');
  const item = sider.getByText('用户管理', { exact: true });
  if (!(await item.isVisible())) await sider.getByText('系统管理', { exact: true }).click();
  await item.waitFor({ state: 'visible' });
  const start = await page.evaluate(() => {
    (window as unknown as { __watchUsable: () => void }).__watchUsable();
    return performance.now();
  });
  await item.click();
  await waitUsable(page);
  return (await page.evaluate(() => (window as unknown as { __usableAt: number }).__usableAt)) - start;
}

function waterfall(nav: Navigation): string {
  const api = nav.requests.filter((r) => !r.url.startsWith('/assets/')).sort((a, b) => a.start - b.start);
  const js = nav.requests.filter((r) => r.url.startsWith('/assets/'));
  const jsEnd = Math.max(0, ...js.map((r) => r.end));
  const lines = [`    JS: ${js.length} files, the last one in at ${ms(jsEnd)}`];
  const shown = process.env.BENCH_VERBOSE ? [...nav.requests].sort((a, b) => a.start - b.start) : api;
  for (const r of shown) lines.push(`    ${ms(r.start).padStart(7)} -> ${ms(r.end).padStart(7)} (${ms(r.end - r.start).padStart(6)})  ${decodeURIComponent(r.url).slice(0, 110)}`);
  return lines.join('\n');
}

async function measureUsersScreen(browser: Browser, baseUrl: string, token: string, csrf: string, total: number): Promise<void> {
  const newContext = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN', baseURL: baseUrl });
    // a logged-in session: the cookies the login form gets without 记住我 (HttpOnly token, readable CSRF token)
    await context.addCookies([
      { name: 'dp_session', value: encodeURIComponent(token), url: baseUrl, httpOnly: true, sameSite: 'Strict' },
      { name: 'dp_csrf', value: encodeURIComponent(csrf), url: baseUrl, sameSite: 'Strict' },
    ]);
    await context.addInitScript(usableProbe(Math.min(10, total), total));
    return context;
  };

  // Cold: a fresh context each time (empty HTTP cache, no compiled code), the first visit goes straight to
  // the users screen; COLD_VISITS of them, the median counts.
  const loadBefore = load();
  const colds: Navigation[] = [];
  for (let i = 0; i < COLD_VISITS; i++) {
    const coldContext = await newContext();
    colds.push(await navigate(await coldContext.newPage()));
    await coldContext.close();
  }
  const coldByTime = [...colds].sort((a, b) => a.usable - b.usable);
  const cold = coldByTime[Math.floor((coldByTime.length - 1) / 2)];

  // Warm: one context, the screen loaded once, then NAVIGATIONS more full navigations to it.
  const context = await newContext();
  const page = await context.newPage();
  await navigate(page);
  const warm: Navigation[] = [];
  for (let i = 0; i < NAVIGATIONS; i++) warm.push(await navigate(page));
  const inApp: number[] = [];
  for (let i = 0; i < Math.min(NAVIGATIONS, 5); i++) inApp.push(await navigateInApp(page));
  await context.close();

  const times = warm.map((n) => n.usable);
  const med = median(times);
  const ok = med < USABLE_TARGET_MS && cold.usable < USABLE_TARGET_MS;
  console.log(`${USER_SCREEN} with ${total.toLocaleString('en')} users, navigation -> usable table (rows + total shown), load average ${loadBefore} -> ${load()} on ${os.cpus().length} CPUs:`);
  console.log(
    `  first visit (cold, fresh context), median of ${colds.length}: ${ms(cold.usable)} (${colds.map((n) => Math.round(n.usable)).join(', ')}; renderer main-thread CPU of the median one ${ms(cold.cpu)})`,
  );
  console.log(
    `  warm, median of ${NAVIGATIONS}: ${ms(med)} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}; ${times.map((t) => Math.round(t)).join(', ')}; main-thread CPU median ${ms(median(warm.map((n) => n.cpu)))})`,
  );
  console.log(`  target < ${USABLE_TARGET_MS} ms: ${ok ? 'OK' : 'MISSED'}`);
  // one line for `npm run bench` (bench/run.ts collects the lines starting with [speed])
  console.log(
    `[speed] users table usable on a first visit with an empty browser cache (${USERS.toLocaleString('en')} users), median of ${colds.length}: ${ms(cold.usable)} (target < ${USABLE_TARGET_MS} ms: ${cold.usable < USABLE_TARGET_MS ? 'OK' : 'MISSED'}); baseline a warm visit ${ms(med)}`,
  );
  console.log(`  opened from the menu of the running app, median of ${inApp.length}: ${ms(median(inApp))} (${inApp.map((t) => Math.round(t)).join(', ')})`);
  console.log('  median cold waterfall (ms since navigation start):');
  console.log(waterfall(cold));
  const byTime = [...warm].sort((a, b) => a.usable - b.usable);
  console.log('  median warm waterfall:');
  console.log(waterfall(byTime[Math.floor((byTime.length - 1) / 2)]));
}

/** Server time of the calls the screen makes, over HTTP without the browser (median of 20 after 3 warm-ups). */
async function measureApi(baseUrl: string, token: string): Promise<void> {
  const calls = ['/api/users?page=0&size=10&sort=id%2Cdesc', '/api/dept', '/api/dictDetail/map?dictName=user_status', '/api/roles/level'];
  const parts: string[] = [];
  for (const url of calls) {
    const once = async () => {
      const t0 = performance.now();
      const res = await fetch(baseUrl + url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) await once();
    const xs: number[] = [];
    for (let i = 0; i < 20; i++) xs.push(await once());
    parts.push(`${decodeURIComponent(url)} ${median(xs).toFixed(1)} ms`);
  }
  console.log(`API over HTTP, median of 20: ${parts.join('; ')}`);
}

async function main() {
  if (!process.env.WEB_DIST) ensureWebBuild();
  await waitForChromium();
  const { database, label, cleanup } = await openBenchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-users-'));
  const config = {
    ...configFromEnv({}),
    host: '127.0.0.1',
    port: 0,
    dataDir,
    webDist: DIST_DIR,
    captchaEnabled: false,
    logRequests: false,
    scheduler: false,
    demoData: false,
    loginRateLimitPerMinute: 100_000,
  };
  const app = await buildApp(config, { database });
  let browser: Browser | undefined;
  try {
    const seeded = await seedBenchUsers(database, USERS);
    const total = Number((await database.db.selectFrom('sys_user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    console.log(`${label}: seeded ${USERS.toLocaleString('en')} users in ${seeded.seconds.toFixed(1)} s (${total.toLocaleString('en')} in sys_user)`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const pk = ((await (await fetch(`${baseUrl}/auth/publicKey`)).json()) as { publicKey: string }).publicKey;
    const res = await fetch(`${baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: encryptLoginPassword(pk, ADMIN.password), code: '', uuid: '' }),
    });
    if (!res.ok) throw new Error(`login: HTTP ${res.status} ${await res.text()}`);
    const token = ((await res.json()) as { token: string }).token;

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    console.log(`chromium ${browser.version()} on ${baseUrl}, web app ${DIST_DIR}`);
    await measureBundles(browser, baseUrl);
    const csrf = csrfTokenFor(app.ctx.keys.tokenSecret, verifyToken(app.ctx.keys.tokenSecret, token)?.jti ?? '');
    await measureUsersScreen(browser, baseUrl, token, csrf, total);
    await measureApi(baseUrl, token);
  } finally {
    await browser?.close().catch(() => undefined);
    await app.close();
    await cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
