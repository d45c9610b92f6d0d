/**
 * The dashboard's overview and a client's chart in Chromium (behaviour DASH-7..DASH-9), with the
 * statistics items written as the rollup keeps them (test/support/token-stats.ts): the counts, the
 * per-grant table, both charts as images with their names and their tables under them, and the
 * client page's chart; no console errors or CSP violations. Screenshots `dashboard-overview` and
 * `dashboard-client` (`npm run screenshots` writes them to docs/screenshots/).
 *
 * Run with `npm run test:browser`.
 */
import type { Browser, Page } from 'playwright-core';
import type { LocalApp } from '../../lambdas/local/app';
import { launchChromium } from '../support/browser';
import { adminDashboardPage, shot, startDashboardApp } from '../support/dashboard-browser';
import { createClient } from '../support/fixtures';
import { recordSigningKeyTimes } from '../support/signing-key-times';
import { type HourCounts, hourBefore, putApiKeyExpiryDay, putServiceCounters, putTokenStatsHour } from '../support/token-stats';

let app: LocalApp;
let outbox: string;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let clientId: string;

/** A week of traffic with a daily rhythm and a few refusals, so the charts have something to show. */
function trafficOf(hoursAgo: number): HourCounts {
  const rhythm = Math.round(14 * Math.sin(((24 - (hoursAgo % 24)) / 24) * 2 * Math.PI));
  return {
    client_credentials: { issued: 24 + rhythm + (hoursAgo % 5), refused: hoursAgo % 7 === 0 ? 4 : hoursAgo % 11 === 0 ? 1 : 0 },
    authorization_code: { issued: 6 + (hoursAgo % 4), refused: hoursAgo % 9 === 0 ? 2 : 0 },
    refresh_token: { issued: 9 + (hoursAgo % 3) },
    'api key': { issued: 2, refused: hoursAgo % 13 === 0 ? 3 : 0 },
  };
}

beforeAll(async () => {
  browser = await launchChromium();
  ({ app, outbox } = await startDashboardApp('dashov'));
  const now = Date.now();
  const client = await createClient({
    kind: 'service',
    name: 'Inventory service',
    environmentId: app.bootstrap.environments.defaultId,
    test: false,
  });
  clientId = client.clientId;
  await putServiceCounters({ staticClients: 14, dynamicClients: 37, users: 212, apiKeysWithoutExpiry: 9 });
  await putApiKeyExpiryDay(new Date(now + 12 * 86_400_000).toISOString().slice(0, 10), 2);
  await putApiKeyExpiryDay(new Date(now + 60 * 86_400_000).toISOString().slice(0, 10), 5);
  // A few at a time: DynamoDB Local is shared with every test of the machine, and its calls time out after 2 s.
  for (let first = 0; first < 168; first += 8) {
    const hours = Array.from({ length: 8 }, (_, i) => first + i);
    await Promise.all(hours.map((ago) => putTokenStatsHour({ kind: 'service' }, hourBefore(now, ago), trafficOf(ago))));
  }
  await Promise.all(
    [0, 3, 26, 50, 75, 99, 120].map((hoursAgo, i) =>
      putTokenStatsHour({ kind: 'client', clientId }, hourBefore(now, hoursAgo), {
        client_credentials: { issued: 10 + 3 * i, refused: i % 3 === 0 ? 2 : 0 },
      }),
    ),
  );
  // The local server rotates nothing: the record the rotation job writes after each run in AWS.
  await recordSigningKeyTimes({
    currentKid: 'w8Xq2rT0kV3nB6mZ1yL4pA7sD9fG5hJ0cE2uR8tY6iO',
    activatedAt: new Date(now - 17 * 86_400_000 - 3_600_000).toISOString(),
    rotateAfterDays: 30,
    publishLeadMs: 20 * 60_000,
    recordedAt: new Date(now - 3_600_000).toISOString(),
  });
  ({ page, consoleErrors } = await adminDashboardPage(browser, app, outbox));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const number = async (selector: string) => Number(await page.textContent(selector));

describe('the overview in Chromium (behaviour DASH-7)', () => {
  it('shows the counts, linked to their lists', async () => {
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // At least: on a branch with the stream rollup, the local server also counts what the set-up created.
    expect(await number('#count-static-clients')).toBeGreaterThanOrEqual(14);
    expect(await number('#count-dynamic-clients')).toBeGreaterThanOrEqual(37);
    expect(await number('#count-users')).toBeGreaterThanOrEqual(212);
    expect(await number('#count-active-keys')).toBeGreaterThanOrEqual(16);
    expect(await number('#count-expiring-keys')).toBeGreaterThanOrEqual(2);
    await page.click('#counts a[href="/dashboard/clients?type=dynamic"]');
    expect(new URL(page.url()).search).toBe('?type=dynamic');
    await page.goBack();
  });

  it("shows the signing key's age and next rotation", async () => {
    expect(await page.textContent('#signing-key-age')).toMatch(/^17 days \(signing since /);
    expect(await page.textContent('#signing-key-next')).toContain("the next key is published at the rotation job's first daily run from");
  });

  it('tabulates each grant over 24 hours and 7 days with its refusal rate', async () => {
    const row = await page.$$eval('#token-requests tr[data-request-type="client_credentials"] td', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(row).toHaveLength(6);
    expect(Number(row[0])).toBeGreaterThan(0);
    expect(row[2]).toMatch(/^\d+(\.\d)?%$/);
    const unused = await page.$$eval('#token-requests tr[data-request-type="urn:ietf:params:oauth:grant-type:jwt-bearer"] td', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(unused).toEqual(['0', '0', '–', '0', '0', '–']);
  });
});

describe('the charts in Chromium (behaviour DASH-9)', () => {
  it('each chart is an image named by its title, with bars of both kinds and a legend in words', async () => {
    for (const name of ['Token requests in the last 24 hours, by hour (UTC)', 'Token requests in the last 7 days, by day (UTC)']) {
      const chart = page.getByRole('img', { name });
      expect(await chart.isVisible()).toBe(true);
      expect(await chart.locator('rect.issued').count()).toBeGreaterThan(0);
      expect(await chart.locator('rect.refused').count()).toBeGreaterThan(0);
      expect(await chart.locator('.legend text').allTextContents()).toEqual(['Issued (solid)', 'Refused (hatched)']);
    }
    expect(await page.locator('#chart-24h rect.issued').count()).toBe(24);
    expect(await page.locator('#chart-7d rect.issued').count()).toBe(7);
    const box = await page.locator('#chart-24h').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await shot(page, 'dashboard-overview');
  });

  it("the table under a chart opens and totals the same as the grant table's 24-hour column", async () => {
    const details = page.locator('figure:has(#chart-24h) details');
    expect(await details.locator('table').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('table').isVisible()).toBe(true);
    expect(await details.locator('tbody tr').count()).toBe(24);
    const chartTotal = await details.locator('tfoot th').allTextContents();
    const tableTotal = await page.locator('#token-requests tfoot td').allTextContents();
    expect(chartTotal.slice(1)).toEqual(tableTotal.slice(0, 2));
  });

  it('no console errors or CSP violations on the overview', () => {
    expect(consoleErrors).toEqual([]);
  });
});

describe("a client's page in Chromium (behaviour DASH-8)", () => {
  it('charts its last 7 days by day and links its activity log', async () => {
    await page.goto(`${app.url}/dashboard/clients/${clientId}`);
    const chart = page.getByRole('img', { name: 'Token requests of this client in the last 7 days, by day (UTC)' });
    expect(await chart.isVisible()).toBe(true);
    expect(await page.locator('figure:has(#client-chart-7d) tfoot th').allTextContents()).toEqual(['Total', '133', '6']);
    await page.click('text=Every request in the token activity log');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/clients/${clientId}/activity`);
    await page.goBack();
    await shot(page, 'dashboard-client');
    expect(consoleErrors).toEqual([]);
  });
});
