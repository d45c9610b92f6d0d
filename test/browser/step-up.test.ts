/**
 * A stricter MFA policy in a real browser (behaviour MFA-9, MFA-10, DASH-1, AUTHZ-12):
 * under MFA_POLICY=off the seeded admin signs in to a client with the password alone, opens the
 * dashboard, and sets the policy to `admins` there. The very next dashboard page asks for the
 * mailed code ("Email me a code"), the code from the outbox brings the admin back to that page,
 * and the next authorization issues its code without asking again. No console errors, so no CSP
 * violations (the passkey button's script included).
 *
 * Run with `npm run test:browser`.
 */
import { mkdtempSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '../../lambdas/core/model';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { authorizeQuery, pkcePair } from '../support/authorization';
import { createClient } from '../support/fixtures';
import { launchChromium, newestMail, pageWatchingErrors, startCallbackServer } from '../support/browser';

const outbox = join(mkdtempSync(join(tmpdir(), 'step-up-browser-')), 'outbox');
let callback: Server;
let callbackOrigin: string;
let app: LocalApp;
let browser: Browser;
let client: Client;

beforeAll(async () => {
  browser = await launchChromium();
  ({ server: callback, origin: callbackOrigin } = await startCallbackServer());
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `stepb-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', MAIL_OUTBOX_DIR: outbox, MFA_POLICY: 'off' },
  });
  client = await createClient({
    kind: 'app',
    environmentId: app.bootstrap.environments.defaultId,
    redirectUris: [`${callbackOrigin}/callback`],
    test: false,
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  callback?.close();
});

const authorizeUrl = () =>
  `${app.url}/api/authorize?${new URLSearchParams(authorizeQuery(client, { code_challenge: pkcePair().challenge, state: 'up' })).toString()}`;

async function expectCallbackWithCode(page: Page): Promise<void> {
  await page.waitForURL(`${callbackOrigin}/callback?**`);
  const params = new URL(page.url()).searchParams;
  expect(params.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(params.get('state')).toBe('up');
}

it('a password-only admin session is asked for the code once the policy is tightened, and is used again after it', async () => {
  const { page, consoleErrors } = await pageWatchingErrors(browser);
  const admin = app.bootstrap.admin;

  // MFA_POLICY=off: the password alone signs in, and the code goes to the client.
  await page.goto(authorizeUrl());
  await page.fill('#email', admin.email);
  await page.fill('#password', admin.password);
  await page.click('form[action="/api/authorize"] button[type=submit]');
  await expectCallbackWithCode(page);

  // The admin tightens the policy on the dashboard, with that session.
  await page.goto(`${app.url}/dashboard/settings`);
  expect(await page.textContent('h1')).toBe('Settings');
  await page.selectOption('#mfa_policy', 'admins');
  await page.click('form[action="/dashboard/settings"] button[type=submit]');
  await page.waitForLoadState();

  // The next page asks for the code of the session's missing second factor.
  expect(await page.textContent('h1')).toBe('Confirm it is you');
  expect(await page.textContent('body')).toContain('•••@');
  await page.click('form[action="/api/auth/step-up"] button[type=submit]');
  await page.waitForSelector('#code');
  await page.fill('#code', await newestMail(outbox, admin.email, /sign-in code is ([0-9]{6})/));
  await page.click('form[action="/api/auth/otp"] button[type=submit]');
  await page.waitForLoadState();
  expect(new URL(page.url()).pathname).toBe('/dashboard/settings');
  expect(await page.textContent('#mfa-in-force')).toBe('admins');

  // The new session has the second factor: the next authorization asks nothing.
  await page.goto(authorizeUrl());
  await expectCallbackWithCode(page);
  expect(consoleErrors).toEqual([]);
});
