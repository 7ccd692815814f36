import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, activeScreen, login, screenshot, startHarness } from './harness';

/**
 * Findings UX and W9 in a real browser: the search areas of 月度工资 and 员工管理 label every filter, the
 * required 单位 comes first (marked required), the bar stays compact at 1440 px and wraps cleanly at 800 px (no
 * label left on one line with its control on the next, nothing wider than the screen), and in English no table
 * header splits inside a word ("Special deduction⏎s").
 */

const COMPANY = 'E2E筛选单位';

const LANGS = [
  { lng: 'zh', locale: 'zh-CN', company: '单位', month: '月份', name: '姓名' },
  { lng: 'en', locale: 'en-US', company: 'Company', month: 'Month', name: 'Name' },
] as const;

async function open(page: Page, path: string, testId: string): Promise<Locator> {
  await page.goto(path);
  const s = activeScreen(page);
  await s.getByTestId(testId).first().waitFor({ state: 'visible', timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  return s;
}

/** The labels of the search area, in order, and whether the first is marked required. */
async function searchLabels(s: Locator): Promise<{ labels: string[]; firstRequired: boolean }> {
  return s
    .locator('.crud-search')
    .first()
    .evaluate((bar) => {
      const labels = Array.from(bar.querySelectorAll('.crud-search-item > .crud-search-label'));
      return { labels: labels.map((l) => (l.textContent ?? '').trim()), firstRequired: !!labels[0]?.classList.contains('crud-search-required') };
    });
}

/** Layout problems of the bar: a label not on the line of its control, a bar wider than its box. */
async function layoutProblems(s: Locator): Promise<string[]> {
  return s
    .locator('.crud-search')
    .first()
    .evaluate((bar) => {
      const out: string[] = [];
      if (bar.scrollWidth > bar.clientWidth + 1) out.push(`bar overflows: ${bar.scrollWidth} > ${bar.clientWidth}`);
      for (const item of Array.from(bar.querySelectorAll('.crud-search-item'))) {
        const label = item.querySelector('.crud-search-label')?.getBoundingClientRect();
        const control = item.lastElementChild?.getBoundingClientRect();
        if (!label || !control) continue;
        const mid = label.top + label.height / 2;
        if (mid < control.top || mid > control.bottom) out.push(`label "${item.textContent}" is not beside its control`);
        if (label.height > 30) out.push(`label "${item.textContent}" wraps (${label.height}px)`);
      }
      return out;
    });
}

/** Table headers whose text is split inside a word: a line ends where the next character is a letter. */
async function brokenHeaders(s: Locator): Promise<string[]> {
  return s.locator('.ant-table-thead').first().evaluate((thead) => {
    const out: string[] = [];
    for (const th of Array.from(thead.querySelectorAll('th'))) {
      const text = th.textContent ?? '';
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const s = node.textContent ?? '';
        const range = document.createRange();
        let lastTop: number | null = null;
        for (let i = 0; i < s.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = range.getBoundingClientRect().top;
          // a new line that starts in the middle of a Latin word
          if (lastTop !== null && top > lastTop + 2 && /[A-Za-z]/.test(s[i]) && /[A-Za-z]/.test(s[i - 1] ?? '')) out.push(text);
          lastTop = top;
        }
      }
    }
    return [...new Set(out)];
  });
}

describe('labelled filters, 单位 first, in zh and en (findings UX, W9)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    const page = await h.newPage();
    await login(page);
    const token = (await page.context().cookies()).find((c) => c.name === 'dp_session')?.value;
    const res = await fetch(`${h.baseUrl}/api/accountsCompany`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        companyName: COMPANY,
        serviceType: '劳务派遣',
        feeType: '按人头',
        fee: 100,
        disabledPay: 0,
        dispatchCompany: '北京华派人力资源有限公司',
        contact: '王经理',
        phone: '010-88886666',
        gjjBase: 8000,
        yanglaoBase: 7162,
        yilaoBase: 7162,
        yilaoBaseSelf: 7162,
        shiyeBase: 7162,
        gongshangBase: 7162,
        shengyuBase: 7162,
      }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    await page.close();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  for (const lang of LANGS) {
    for (const [width, height] of [
      [1440, 900],
      [800, 800],
    ] as const) {
      it(`${lang.lng} at ${width} px: 月度工资 and 员工管理 label every filter, 单位 first`, { timeout: 120_000 }, async () => {
        const page = await h.newPage({ width, height, locale: lang.locale });
        await login(page);

        const salary = await open(page, '/salary/accountsSalary', 'salary-page');
        await expect.poll(() => salary.getByTestId('salary-company').textContent(), { timeout: 15_000 }).toContain(COMPANY);
        const sl = await searchLabels(salary);
        expect(sl.labels.slice(0, 2)).toEqual([lang.company, lang.month]);
        expect(sl.firstRequired).toBe(true);
        expect(sl.labels).toContain(lang.name);
        expect(sl.labels.length).toBe(5);
        expect(await layoutProblems(salary)).toEqual([]);
        if (width === 1440) {
          // compact: the five filters and the two buttons take at most two lines
          const box = await salary.locator('.crud-search').first().boundingBox();
          expect(box?.height ?? 0).toBeLessThan(80);
        }
        await screenshot(page, `filters-salary-${lang.lng}-${width}`);
        if (lang.lng === 'en') expect(await brokenHeaders(salary)).toEqual([]);

        const staff = await open(page, '/accounts/staff', 'accounts-staff-page');
        await expect.poll(() => staff.getByTestId('company-select').textContent(), { timeout: 15_000 }).toContain(COMPANY);
        const st = await searchLabels(staff);
        expect(st.labels[0]).toBe(lang.company);
        expect(st.firstRequired).toBe(true);
        expect(st.labels).toContain(lang.name);
        expect(await layoutProblems(staff)).toEqual([]);
        await screenshot(page, `filters-staff-${lang.lng}-${width}`);
        if (lang.lng === 'en') expect(await brokenHeaders(staff)).toEqual([]);
        expect(h.errorsOf(page).page).toEqual([]);
      });
    }
  }
});
