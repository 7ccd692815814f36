import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, type Harness, login, screenshot, startHarness } from './harness';

/**
 * Issue 26 items U12, U19, U25 in a real browser, at 1440×900 and 390 px, light and
 * dark, zh and en: the ops/tools lists (定时任务, 任务管理, SQL监控, 存储管理, 图床管理, 邮件工具 › 发送记录) show the
 * shared labelled filter row, 接口文档 is the app's own screen with its groups in menu order and theme colours,
 * 下次执行/上次执行 are in view beside 定时任务's fixed 操作 column, nothing is wider than a phone, and a dark page is
 * dark. Every combination is saved as a screenshot (screenshots/looks-<screen>-<lng>-<look>-<width>.png).
 */

interface Look {
  lng: 'zh' | 'en';
  locale: string;
  dark: boolean;
  width: number;
  height: number;
}
const LOOKS: Look[] = [];
for (const [lng, locale] of [
  ['zh', 'zh-CN'],
  ['en', 'en-US'],
] as const)
  for (const dark of [false, true])
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const)
      LOOKS.push({ lng, locale, dark, width, height });

const TEXT = {
  zh: { nextRun: '下次执行', lastRun: '上次执行', firstGroup: '登录' },
  en: { nextRun: 'Next run', lastRun: 'Last run', firstGroup: 'Login' },
};

interface ListScreen {
  name: string;
  path: string;
  testId: string;
  /** a tab to open first (index among the screen's tabs) */
  tab?: number;
}
/** The lists that had their own search box (U19) and 定时任务 (U12). */
const LISTS: ListScreen[] = [
  { name: 'jobs', path: '/tools/timing', testId: 'jobs-page' },
  { name: 'tasks', path: '/operations/tasks', testId: 'tasks-page' },
  { name: 'sql', path: '/tools/sqlMonitor', testId: 'sql-monitor-page' },
  { name: 'storage', path: '/tools/storage', testId: 'storage-page' },
  { name: 'pictures', path: '/tools/pictures', testId: 'picture-page' },
  { name: 'email-logs', path: '/tools/email', testId: 'email-tool', tab: 2 },
];

async function open(page: Page, path: string, testId: string): Promise<Locator> {
  await page.goto(path);
  const s = activeScreen(page);
  await s.getByTestId(testId).first().waitFor({ state: 'visible', timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  return s;
}

/** Is the header fully inside the table's visible area and left of the fixed columns on the right? */
async function headerInView(s: Locator, title: string): Promise<boolean> {
  return s.locator('.ant-table-container').first().evaluate((container, text) => {
    const box = container.getBoundingClientRect();
    const ths = Array.from(container.querySelectorAll('.ant-table-thead th'));
    const th = ths.find((h) => (h.textContent ?? '').trim() === text);
    if (!th) return false;
    const r = th.getBoundingClientRect();
    const fixedRight = ths.filter((h) => h.classList.contains('ant-table-cell-fix-right') || h.classList.contains('ant-table-cell-fix-end'));
    const limit = Math.min(box.right, ...fixedRight.map((h) => h.getBoundingClientRect().left));
    return r.left >= box.left - 1 && r.right <= limit + 1;
  }, title);
}

/** Relative luminance (0 black .. 1 white) of the first opaque background from the element up. */
async function backgroundLuminance(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    for (let n: Element | null = node; n; n = n.parentElement) {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/.exec(getComputedStyle(n).backgroundColor);
      // a translucent tint (antd's fill colours) shows what is below it
      if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) continue;
      const [r, g, b] = [m[1], m[2], m[3]].map((v) => Number(v) / 255);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    }
    return 1;
  });
}

/** How far the page is wider than the window (a phone must not scroll sideways; tables scroll inside). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('screens at 1440/390 px, light/dark, zh/en (issue 26)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  for (const look of LOOKS) {
    const tag = `${look.lng}-${look.dark ? 'dark' : 'light'}-${look.width}`;
    it(`lists and 接口文档 in ${tag}`, { timeout: 180_000 }, async () => {
      const page = await h.newPage({ width: look.width, height: look.height, locale: look.locale });
      await page.goto('/login');
      await page.evaluate((dark) => localStorage.setItem('dp-layout-settings', JSON.stringify({ darkMode: dark })), look.dark);
      await login(page);
      const text = TEXT[look.lng];

      for (const list of LISTS) {
        let s = await open(page, list.path, list.testId);
        if (list.tab !== undefined) {
          await s.locator('.ant-tabs-tab').nth(list.tab).click();
          await page.waitForLoadState('networkidle');
          s = activeScreen(page);
        }
        // U19: the shared filter row — a labelled search item — on every one of these lists
        const row = s.locator('.crud-search:visible').first();
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        expect(await row.locator('label.crud-search-label').count(), list.name).toBeGreaterThan(0);
        expect(await s.locator('.crud-toolbar:visible').count(), list.name).toBeGreaterThan(0);
        if (look.width === 390) expect(await sidewaysOverflow(page), list.name).toBeLessThanOrEqual(1);
        if (look.dark) expect(await backgroundLuminance(s.locator('.ant-card').first()), list.name).toBeLessThan(0.2);
        if (list.name === 'jobs' && look.width === 1440) {
          // U12: the columns a clerk reads are not under the fixed 操作 column
          await s.locator('tr.ant-table-row').first().waitFor({ state: 'visible', timeout: 10_000 });
          expect(await headerInView(s, text.nextRun)).toBe(true);
          expect(await headerInView(s, text.lastRun)).toBe(true);
        }
        if ((list.name === 'jobs' || list.name === 'tasks') && look.width === 390) {
          // U8: no fixed 操作 column covering the row on a phone
          expect(await s.locator('.ant-table-cell-fix-right, .ant-table-cell-fix-end').count(), list.name).toBe(0);
        }
        if (list.name === 'tasks' && look.width === 1440) {
          expect(await headerInView(s, text.nextRun)).toBe(true);
        }
        await screenshot(page, `looks-${list.name}-${tag}`);
      }

      // U25: the app's own API screen, groups in menu order, readable in dark mode
      const docs = await open(page, '/tools/apiDocs', 'api-docs-page');
      const groups = docs.getByTestId('api-docs-groups');
      await groups.waitFor({ state: 'visible', timeout: 20_000 });
      const headers = groups.locator(':scope > .ant-collapse-item > .ant-collapse-header');
      expect((await headers.first().textContent())?.trim()).toMatch(new RegExp(`^${text.firstGroup}\\d+$`));
      expect(await docs.locator('label.crud-search-label').count()).toBe(1);
      await headers.nth(3).click();
      const op = groups.locator('.ant-collapse-item-active .ant-collapse .ant-collapse-header').first();
      await op.waitFor({ state: 'visible' });
      await op.click();
      await groups.locator('.ant-collapse-item-active .ant-table').first().waitFor({ state: 'visible', timeout: 10_000 });
      if (look.dark) expect(await backgroundLuminance(groups)).toBeLessThan(0.2);
      else expect(await backgroundLuminance(groups)).toBeGreaterThan(0.8);
      if (look.width === 390) expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(1);
      await screenshot(page, `looks-apidocs-${tag}`);
      await docs.getByTestId('api-docs-search').fill('accountsSalary');
      await docs.getByTestId('api-docs-search').press('Enter');
      await expect.poll(() => headers.count()).toBeLessThan(5);
      if (tag === 'zh-light-1440') {
        // 调试: the server's own Swagger UI in the frame, at the contract's API_DOCS_UI_PATH
        await docs.getByTestId('api-docs-view').getByText('调试（Swagger UI）').click();
        const swagger = page.frameLocator('[data-testid="api-docs-frame"]').locator('.swagger-ui .info .title');
        await swagger.waitFor({ state: 'visible', timeout: 20_000 });
        await screenshot(page, 'looks-apidocs-frame-zh');
      }

      expect(h.errorsOf(page).page).toEqual([]);
      await page.close();
    });
  }
});
