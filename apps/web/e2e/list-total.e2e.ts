import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type Harness, openScreen, screenshot, startLoggedIn } from './harness';

/**
 * Issue 27 item 2, web side: a generic list whose total the server only estimated (`totalEstimated: true`, which
 * PostgreSQL answers at 10,000 matching rows or more) says "约 N 条" under the table. The harness runs SQLite, which
 * always counts, so the browser's copy of the real list answer is marked estimated on its way in.
 */
describe('estimated list totals', () => {
  let h: Harness;
  let page: Page;
  beforeAll(async () => {
    ({ h, page } = await startLoggedIn());
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('shows 约 N 条 for an estimated total and 共 N 条 for a counted one', async () => {
    await page.route(
      (url) => url.pathname === '/api/job',
      async (route) => {
        const answer = await route.fetch();
        const body = (await answer.json()) as Record<string, unknown>;
        await route.fulfill({ response: answer, json: { ...body, totalElements: 123456, totalEstimated: true } });
      },
    );
    let s = await openScreen(page, '/system/job', 'crud-page-job');
    const total = () => s.locator('.ant-pagination-total-text').textContent();
    await expect.poll(total, { timeout: 15_000 }).toBe('约 123456 条');
    await screenshot(page, 'list-total-estimated');

    await page.unrouteAll();
    s = await openScreen(page, '/system/job', 'crud-page-job');
    await expect.poll(total, { timeout: 15_000 }).toMatch(/^共 \d+ 条$/);
  });
});
