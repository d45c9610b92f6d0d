/**
 * The admin dashboard in a real browser (behaviour DASH-1..DASH-5): Debian's Chromium
 * driven by playwright-core against the local server, the sign-in code read from the outbox.
 * The admin signs in, filters clients to the self-registered ones, creates a confidential client
 * (its secret shown once), creates an API key, exchanges it with fetch, sees the activity row,
 * revokes the key and sees `revoked`, finds api_key.create and api_key.revoke in the audit log,
 * uploads a logo on the settings page and sees it on the sign-in page, trusts an issuer and deletes it.
 * A plain user gets 403; a cross-site POST and a POST without the CSRF token get 403; no page
 * contains a hash; no console errors or CSP violations. Screenshots of the main pages are taken
 * every run, into the run's temp folder; `npm run screenshots` (UPDATE_SCREENSHOTS=1) writes them
 * to docs/screenshots/ instead, the committed pictures the README links to, so a test run leaves
 * the working tree as it found it.
 *
 * Run with `npm run test:browser`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { Browser, Page } from 'playwright-core';
import type { LocalApp } from '../../lambdas/local/app';
import { createClient, createClientWithSecret, createUserWithPassword, type TestUser } from '../support/fixtures';
import { getUsers } from '../../lambdas/wiring/repositories';
import { launchChromium, pageWatchingErrors } from '../support/browser';
import { noRefusal, shot, signInToDashboard, startDashboardApp } from '../support/dashboard-browser';
import { png } from '../support/images';

let outbox: string;
let app: LocalApp;
let browser: Browser;
let plainUser: TestUser;
let dynamicClientId: string;

/** Every page the browser was shown, to check that none carries a password or secret hash. */
const seenBodies: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  // MFA_POLICY is left at its default (`admins`): the seeded admin enters the mailed code.
  ({ app, outbox } = await startDashboardApp('dashb'));
  const defaultId = app.bootstrap.environments.defaultId;
  const made = await createUserWithPassword({ environments: [defaultId], name: 'Plain User' });
  // Not a test user: behaviour KEY-3 binds test users to test clients only, and the dashboard makes real ones.
  plainUser = { ...made, user: await getUsers().update(made.user, { test: false }, new Date().toISOString()) };
  await createClient({ kind: 'app', name: 'Static web app', environmentId: defaultId, test: false });
  const registered = await fetch(`${app.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Self-registered tool', redirect_uris: ['http://127.0.0.1:9/callback'] }),
  });
  expect(registered.status).toBe(201);
  dynamicClientId = ((await registered.json()) as { client_id: string }).client_id;
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function newPage(): Promise<{ page: Page; consoleErrors: string[] }> {
  const { page, consoleErrors } = await pageWatchingErrors(browser);
  page.on('response', async (response) => {
    if ((response.headers()['content-type'] ?? '').startsWith('text/html')) seenBodies.push(await response.text().catch(() => ''));
  });
  return { page, consoleErrors };
}

const signIn = (page: Page, email: string, password: string) => signInToDashboard(page, outbox, email, password);
// 410: a shown-once page loaded again (behaviour DASH-13).
const onlyRealErrors = (errors: string[]) => errors.filter((e) => !/status of 4(03|04|10)/.test(e));

describe('the admin dashboard in Chromium, without JavaScript, under the pages’ CSP', () => {
  let page: Page;
  let consoleErrors: string[];
  beforeAll(async () => {
    ({ page, consoleErrors } = await newPage());
  });

  it('the admin signs in with password and the mailed code and lands on the dashboard (behaviour DASH-1)', async () => {
    await page.goto(`${app.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/api/auth/signin');
    await signIn(page, app.bootstrap.admin.email, app.bootstrap.admin.password);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.textContent('h1')).toBe('Overview');
  });

  it('lists the static clients; the self-registered one only under Dynamic (dashboard-lists.test.ts has the search, filters and pages)', async () => {
    await page.click('header a[href="/dashboard/clients"]');
    expect(await page.textContent('#clients')).toContain('Static web app');
    await page.click('text=Dynamic (self-registered)');
    const rows = await page.$$eval('#clients tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows.join('\n')).toContain(dynamicClientId);
    expect(rows.join('\n')).not.toContain('Static web app');
  });

  let clientId: string;
  it('creates a confidential client and sees its secret once; it is gone when the address is loaded again', async () => {
    await page.goto(`${app.url}/dashboard/clients/new`);
    await page.selectOption('#type', 'confidential');
    await page.fill('#name', 'Browser-made service');
    await page.check('input[name="scope:profile"]');
    await page.selectOption('#environment_id', app.bootstrap.environments.defaultId);
    await page.click('main button[type=submit]');
    await noRefusal(page);
    const secret = (await page.textContent('#client-secret'))!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    clientId = (await page.textContent('#client-id'))!;
    await shot(page, 'dashboard-client-secret-once', '#client-secret');
    await page.goto(page.url());
    expect(await page.content()).not.toContain(secret);
    await page.goto(`${app.url}/dashboard/clients/${clientId}`);
    expect(await page.content()).not.toContain(secret);
  });

  let apiKey: string;
  let keyId: string;
  it('creates an API key for a user (shown once), exchanges it with fetch, and sees the activity row', async () => {
    await page.fill('#key-user', plainUser.user.email!);
    await page.fill('#key-name', 'Browser key');
    await page.click('form[action$="/keys"] button[type=submit]');
    await noRefusal(page);
    apiKey = (await page.textContent('#api-key'))!;
    keyId = apiKey.split('_')[1]!;
    await shot(page, 'dashboard-client-api-key-once', '#api-key');
    // Behaviour DASH-13: the key is shown on a page of its own; the client's page lists it.
    await page.goto(`${app.url}/dashboard/clients/${clientId}`);
    expect(await page.textContent(`tr[data-key-id="${keyId}"] .status`)).toBe('active');

    const exchanged = await fetch(`${app.url}/api/token/api-key`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
    expect(exchanged.status).toBe(200);

    await page.goto(`${app.url}/dashboard/clients/${clientId}/activity`);
    await page.selectOption('#request_type', 'api key');
    await page.click('main button[type=submit]');
    const rows = await page.$$eval('#activity tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('success');
    expect(rows[0]).toContain(keyId);
    await shot(page, 'dashboard-client-activity');
  });

  it('revokes the key and sees it listed as revoked', async () => {
    await page.goto(`${app.url}/dashboard/clients/${clientId}`);
    await page.click(`tr[data-key-id="${keyId}"] button`);
    expect(await page.textContent('.notice')).toContain('revoked');
    expect(await page.textContent(`tr[data-key-id="${keyId}"] .status`)).toBe('revoked');
    const refused = await fetch(`${app.url}/api/token/api-key`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
    expect(refused.status).toBe(401);
  });

  it('finds api_key.create and api_key.revoke in the audit log, with the admin as actor', async () => {
    await page.click('header a[href="/dashboard/audit"]');
    await page.selectOption('#type', 'api_key');
    await page.click('main button[type=submit]');
    const types = await page.$$eval('#audit tbody td.type', (tds) => tds.map((td) => td.textContent ?? ''));
    expect(types).toEqual(['api_key.revoke', 'api_key.create']);
    const rows = await page.$$eval('#audit tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    // Behaviour DASH-11: the actor by address, the id beneath.
    for (const row of rows) expect(row).toContain(`admin ${app.bootstrap.admin.email}${app.bootstrap.admin.userId}`);
  });

  it('rotates a client secret after the confirmation page: the new one shown once, both work during the overlap (behaviour ADMIN-20)', async () => {
    const { client, secret: old } = await createClientWithSecret({
      name: 'Rotating service',
      environmentId: app.bootstrap.environments.defaultId,
      test: false,
    });
    const clientCredentials = async (secret: string) =>
      (
        await fetch(`${app.url}/api/token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        })
      ).status;
    await page.goto(`${app.url}/dashboard/clients/${client.clientId}`);
    await page.click('text=Rotate secret');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/clients/${client.clientId}/secret`);
    await page.selectOption('#overlap_seconds', '3600');
    await page.click('main button[type=submit]');
    await noRefusal(page);
    const fresh = (await page.textContent('#client-secret'))!;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.textContent('#previous-secret')).toMatch(/keeps working until/);
    await shot(page, 'dashboard-client-secret-rotated', '#client-secret');
    expect(await clientCredentials(old!)).toBe(200);
    expect(await clientCredentials(fresh)).toBe(200);
    await page.goto(`${app.url}/dashboard/clients/${client.clientId}`);
    expect(await page.content()).not.toContain(fresh);
  });

  it('uploads a logo on the settings page and sees it on the sign-in page, under its CSP (behaviour SITE-3, SITE-4)', async () => {
    await page.click('header a[href="/dashboard/settings"]');
    await page.setInputFiles('#logo', { name: 'logo.png', mimeType: 'image/png', buffer: png(48, 48) });
    await page.click('form[action="/dashboard/logo"] button[type=submit]');
    await noRefusal(page);
    expect(await page.textContent('.notice')).toContain('logo was uploaded');
    expect(await page.$eval('#current-logo', (img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(48);
    await shot(page, 'dashboard-settings');

    const visitor = await newPage();
    await visitor.page.goto(`${app.url}/api/auth/signin`);
    const logo = await visitor.page.waitForSelector('header.brand img');
    expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(48);
    expect(await logo.getAttribute('src')).toMatch(/\/branding\/logo-[0-9a-f]{64}\.png$/);
    expect(visitor.consoleErrors).toEqual([]);
  });

  it('shows users, a user, environments and scopes', async () => {
    await page.goto(`${app.url}/dashboard/users`);
    await page.goto(`${app.url}/dashboard/users/${plainUser.user.id}`);
    expect(await page.textContent('main')).toContain('not verified');
    await shot(page, 'dashboard-user');
    // dashboard-environments, with what depends on each, is taken by dashboard-forms.test.ts (behaviour DASH-16).
    await page.goto(`${app.url}/dashboard/environments`);
    await page.goto(`${app.url}/dashboard/scopes`);
    expect(await page.textContent('#scopes')).toContain('openid');
  });

  it('creates a scope, deletes it after the confirmation page, and it is gone; built-in scopes offer no delete (behaviour ADMIN-18)', async () => {
    const name = 'files:write';
    await page.goto(`${app.url}/dashboard/scopes`);
    await page.fill('#scope-name', name);
    await page.fill('#scope-description', 'Write files');
    await page.click('form[action="/dashboard/scopes/new"] button[type=submit]');
    await page.waitForSelector(`#scopes code:text-is("${name}")`);
    expect(await page.locator('#scopes tr:has(code:text-is("openid")) a').count()).toBe(0);
    expect(await page.textContent('#scopes tr:has(code:text-is("openid"))')).toContain('built in');

    await page.click(`#scopes tr:has(code:text-is("${name}")) a:text-is("Delete")`);
    expect(await page.textContent('h1')).toBe(`Delete the scope ${name}?`);
    await page.click('form[action="/dashboard/scopes/remove"] button[type=submit]');
    await page.waitForSelector('.notice');
    expect(new URL(page.url()).pathname).toBe('/dashboard/scopes');
    expect(await page.textContent('.notice')).toBe('The scope was deleted.');
    expect(await page.locator(`#scopes code:text-is("${name}")`).count()).toBe(0);
  });

  it('trusts an issuer, sees it listed and on its page, deletes it after the confirmation page (behaviour TRUST-1, DASH-6)', async () => {
    const issuer = `https://idp-${randomUUID().slice(0, 8)}.example.com`;
    const { publicKey } = await generateKeyPair('ES256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'browser-key', alg: 'ES256' }] };
    await page.click('header a[href="/dashboard/trusted-issuers"]');
    await page.fill('#ti-issuer', issuer);
    await page.selectOption('#ti-profile', 'id-jag');
    await page.fill('#ti-environment', app.bootstrap.environments.defaultId);
    await page.fill('#ti-description', 'Browser IdP');
    await page.fill('#ti-jwks', JSON.stringify(jwks));
    await page.click('form[action="/dashboard/trusted-issuers/new"] button[type=submit]');
    await noRefusal(page);
    expect(await page.textContent('.notice')).toBe('The issuer is trusted.');
    expect(await page.textContent('#trusted-issuer')).toContain(issuer);

    await page.click('header a[href="/dashboard/trusted-issuers"]');
    expect(await page.textContent('#trusted-issuers')).toContain('Browser IdP');
    await page.click(`#trusted-issuers a:text-is("${issuer}")`);
    await page.click('a:text-is("Delete this trusted issuer")');
    expect(await page.textContent('h1')).toBe(`Stop trusting ${issuer}?`);
    await page.click('main form button[type=submit]');
    await page.waitForSelector('.notice');
    expect(new URL(page.url()).pathname).toBe('/dashboard/trusted-issuers');
    expect(await page.textContent('#trusted-issuers')).not.toContain(issuer);
  });

  it('a POST whose CSRF field was removed gets 403 and creates nothing (behaviour DASH-3)', async () => {
    await page.goto(`${app.url}/dashboard/environments`);
    await page.fill('#env-name', 'Without CSRF');
    await page.$eval('form[action="/dashboard/environments/new"] input[name=csrf]', (input) => input.remove());
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('form[action="/dashboard/environments/new"] button'),
    ]);
    expect(response.status()).toBe(403);
    await page.goto(`${app.url}/dashboard/environments`);
    expect(await page.textContent('#environments')).not.toContain('Without CSRF');
  });

  it('a cross-site POST, carrying the real CSRF token, gets 403 (behaviour DASH-3)', async () => {
    await page.goto(`${app.url}/dashboard/environments`);
    const csrf = (await page.getAttribute('input[name=csrf]', 'value'))!;
    const attacker: Server = createServer((_, response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(
          `<!doctype html><form method="post" action="${app.url}/dashboard/environments/new"><input name="csrf" value="${csrf}"><input name="name" value="Cross-site"><button>Go</button></form>`,
        ),
    );
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button')]);
      expect(response.status()).toBe(403);
    } finally {
      attacker.close();
    }
    await page.goto(`${app.url}/dashboard/environments`);
    expect(await page.textContent('#environments')).not.toContain('Cross-site');
  });

  it('showed no console errors or CSP violations, and never a hash', async () => {
    expect(onlyRealErrors(consoleErrors)).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    expect(seenBodies.length).toBeGreaterThan(10);
    for (const body of seenBodies) expect(body).not.toContain('$argon2id$');
  });
});

it('a plain user who signs in gets 403 from the dashboard (behaviour DASH-1)', async () => {
  const { page, consoleErrors } = await newPage();
  await page.goto(`${app.url}/api/auth/signin?return_to=%2Fdashboard`);
  await signIn(page, plainUser.user.email!, plainUser.password);
  const response = await page.goto(`${app.url}/dashboard/users`);
  expect(response!.status()).toBe(403);
  expect(await page.textContent('body')).toContain('for administrators only');
  expect(onlyRealErrors(consoleErrors)).toEqual([]);
});
