/**
 * The dashboard's lists in Chromium (behaviour DASH-10..DASH-12): the admin searches the clients,
 * pages with "Next page" and back with "First page" (the search kept), filters by type and by
 * the self-registered switch, finds a user by address, and reads the audit log with the actor
 * and the client named instead of their ids; no console errors or CSP violations. Screenshots:
 * dashboard-clients-dynamic, dashboard-users, dashboard-audit-log.
 *
 * Run with `npm run test:browser`.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { LocalApp } from '../../lambdas/local/app';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { launchChromium } from '../support/browser';
import { adminDashboardPage, shot, startDashboardApp } from '../support/dashboard-browser';
import { createClient, createUser } from '../support/fixtures';

let outbox: string;
let app: LocalApp;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let dynamicClientId: string;
const marker = `Fleet${randomUUID().slice(0, 6)}`;
const clientIds: string[] = [];
let auditedClient: { clientId: string; name: string };

beforeAll(async () => {
  browser = await launchChromium();
  ({ app, outbox } = await startDashboardApp('dashl'));
  const defaultId = app.bootstrap.environments.defaultId;
  // 27 clients: more than one page of 25, newest last made.
  for (let i = 0; i < 27; i++) {
    const made = await createClient({
      name: `${marker} ${String(i).padStart(2, '0')}`,
      environmentId: defaultId,
      test: false,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      ...(i % 9 === 0 ? { kind: 'app' as const } : {}),
    });
    clientIds.push(made.clientId);
  }
  await createUser({ name: 'Ada Lovelace', email: `ada-${marker.toLowerCase()}@example.com`, environments: [defaultId], test: false });
  const registered = await fetch(`${app.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Self-registered tool', redirect_uris: ['http://127.0.0.1:9/callback'] }),
  });
  expect(registered.status).toBe(201);
  dynamicClientId = ((await registered.json()) as { client_id: string }).client_id;
  auditedClient = await createClient({ name: 'Billing service', environmentId: defaultId, test: false });
  await getAuditLog().record({
    type: 'client.update',
    clientId: auditedClient.clientId,
    reason: 'name',
    actor: { kind: 'admin-user', userId: app.bootstrap.admin.userId },
    at: new Date().toISOString(),
  });
  ({ page, consoleErrors } = await adminDashboardPage(browser, app, outbox));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const rowTexts = (selector: string) => page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => tr.textContent ?? ''));
const idsIn = (rows: string[]) => rows.map((row) => clientIds.find((id) => row.includes(id)));

describe('the dashboard lists in Chromium (behaviour DASH-10..DASH-12)', () => {
  it('searches clients by a part of the name, newest first, with the environment named "Default" and the client id beside', async () => {
    await page.click('header a[href="/dashboard/clients"]');
    await page.fill('#search', marker.toLowerCase());
    await page.click('form.filters button[type=submit]');
    expect(new URL(page.url()).searchParams.get('search')).toBe(marker.toLowerCase());
    const rows = await rowTexts('#clients');
    expect(rows).toHaveLength(25);
    expect(idsIn(rows)).toEqual([...clientIds].reverse().slice(0, 25));
    expect(rows[0]).toContain('Default');
    expect(rows.join('\n')).not.toContain(app.bootstrap.environments.defaultId);
  });

  it('"Next page" keeps the search and shows the rest; "First page" goes back', async () => {
    await page.click('a[rel=next]');
    expect(new URL(page.url()).searchParams.get('search')).toBe(marker.toLowerCase());
    expect(idsIn(await rowTexts('#clients'))).toEqual([clientIds[1], clientIds[0]]);
    expect(await page.$('a[rel=next]')).toBeNull();
    await page.click('a[rel=first]');
    expect(new URL(page.url()).searchParams.get('cursor')).toBeNull();
    expect(await rowTexts('#clients')).toHaveLength(25);
  });

  it('filters by type with the select, the search kept', async () => {
    await page.selectOption('#type', 'public');
    await page.click('form.filters button[type=submit]');
    expect(idsIn(await rowTexts('#clients'))).toEqual([clientIds[18], clientIds[9], clientIds[0]]);
    await page.fill('#search', `${marker}-nothing`);
    await page.click('form.filters button[type=submit]');
    expect(await rowTexts('#clients')).toEqual([]);
    expect(await page.textContent('p.empty')).toBe('No static clients match these filters.');
  });

  it('switches to the self-registered clients, marked so', async () => {
    await page.goto(`${app.url}/dashboard/clients`);
    await page.click('text=Dynamic (self-registered)');
    const rows = await rowTexts('#clients');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain('self-registered');
    expect(rows.join('\n')).toContain(dynamicClientId);
    await shot(page, 'dashboard-clients-dynamic');
  });

  it('finds a user by address', async () => {
    await page.click('header a[href="/dashboard/users"]');
    await shot(page, 'dashboard-users');
    await page.fill('#search', `ADA-${marker}@example.com`);
    await page.click('form.filters button[type=submit]');
    const rows = await rowTexts('#users');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Ada Lovelace');
  });

  it('names the audit entry’s actor by address and its client by name, ids beneath; filters by actor', async () => {
    await page.click('header a[href="/dashboard/audit"]');
    await page.fill('#actor', app.bootstrap.admin.userId);
    await page.fill('#subject', auditedClient.clientId);
    await page.click('main button[type=submit]');
    const rows = await rowTexts('#audit');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`admin ${app.bootstrap.admin.email}`);
    expect(rows[0]).toContain(app.bootstrap.admin.userId);
    expect(rows[0]).toContain(`client Billing service ${auditedClient.clientId}`);
    await page.goto(`${app.url}/dashboard/audit`);
    await shot(page, 'dashboard-audit-log');
  });

  it('logged no console errors (a CSP violation would be one)', () => {
    expect(consoleErrors).toEqual([]);
  });
});
