/**
 * The sign-in pages of an authorization in a real browser (behaviour AUTHZ-20, SITE-4): the sign-in
 * form names the application that asks (a self-registered one escaped and marked as unvetted), and
 * the mailed code's page carries the site's title as the sign-in page does. No console errors, so
 * no CSP violations (the passkey button's script included).
 *
 * Run with `npm run test:browser`.
 */
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Client } from '../../lambdas/core/model';
import type { LocalApp } from '../../lambdas/local/app';
import { authorizeQuery, pkcePair } from '../support/authorization';
import { launchChromium, newestMail, pageWatchingErrors, startCallbackServer } from '../support/browser';
import { startE2eApp } from '../support/e2e-app';
import { createClient } from '../support/fixtures';

const outbox = join(mkdtempSync(join(tmpdir(), 'sign-in-pages-browser-')), 'outbox');
const title = 'Acme <Sign-in> & Co';
const hostileName = `<img src=x onerror="document.title='pwned'"> Friends`;
let callback: Server;
let callbackOrigin: string;
let app: LocalApp;
let browser: Browser;
let staticClient: Client;
let dynamicClient: Client;

beforeAll(async () => {
  browser = await launchChromium();
  ({ server: callback, origin: callbackOrigin } = await startCallbackServer());
  // The default MFA policy (`admins`): the seeded admin is asked for the mailed code.
  const started = await startE2eApp({ name: 'signp', env: { LOG_LEVEL: 'warn', MAIL_OUTBOX_DIR: outbox } });
  app = started.app;
  const titled = await fetch(`${app.url}/api/admin/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${started.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  expect(titled.status).toBe(200);
  const environmentId = app.bootstrap.environments.defaultId;
  const redirectUris = [`${callbackOrigin}/callback`];
  staticClient = await createClient({ kind: 'app', name: 'Reports', environmentId, redirectUris, test: false });
  dynamicClient = await createClient({
    kind: 'app',
    name: hostileName,
    registrationType: 'dynamic',
    environmentId,
    redirectUris,
    test: false,
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  callback?.close();
});

const authorizeUrl = (client: Client) =>
  `${app.url}/api/authorize?${new URLSearchParams(authorizeQuery(client, { code_challenge: pkcePair().challenge, state: 'named' })).toString()}`;

it('the sign-in form names an admin-created client; the code page after it carries the site title (behaviour AUTHZ-20, SITE-4)', async () => {
  const { page, consoleErrors } = await pageWatchingErrors(browser);
  const admin = app.bootstrap.admin;
  await page.goto(authorizeUrl(staticClient));
  expect(await page.textContent('header.brand')).toBe(title);
  expect(await page.textContent('#continuing-to')).toBe('Sign in to continue to Reports');
  expect(await page.locator('#self-registered').count()).toBe(0);
  await page.fill('#email', admin.email);
  await page.fill('#password', admin.password);
  await page.click('form[action="/api/authorize"] button[type=submit]');
  await page.waitForSelector('#code');
  expect(await page.textContent('h1')).toBe('Enter your code');
  expect(await page.textContent('header.brand')).toBe(title);
  await page.fill('#code', await newestMail(outbox, admin.email, /sign-in code is ([0-9]{6})/));
  await page.click('form[action="/api/auth/otp"] button[type=submit]');
  await page.waitForURL(`${callbackOrigin}/callback?**`);
  expect(new URL(page.url()).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(consoleErrors).toEqual([]);
});

it("a self-registered client's name is shown as text, never markup, with the warning that nobody vetted it (behaviour AUTHZ-20)", async () => {
  const { page, consoleErrors } = await pageWatchingErrors(browser);
  await page.goto(authorizeUrl(dynamicClient));
  expect(await page.textContent('#continuing-to strong')).toBe(hostileName);
  expect(await page.locator('#continuing-to img').count()).toBe(0);
  expect(await page.textContent('#self-registered')).toContain('This application registered itself with this server.');
  expect(await page.textContent('header.brand')).toBe(title);
  expect(await page.title()).toBe('Sign in');
  expect(consoleErrors).toEqual([]);
});
