/**
 * What every dashboard test in Chromium needs (test/browser/dashboard*.test.ts): a local server with
 * its own tables and outbox, the admin's sign-in (password, then the mailed code), the check that a
 * form was not refused, and screenshots. Screenshots go to the run's temp folder; `npm run
 * screenshots` (UPDATE_SCREENSHOTS=1) writes them to docs/screenshots/ instead, the committed
 * pictures the README links to, so a test run leaves the working tree as it found it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type LocalApp, startLocalApp } from '../../lambdas/local/app';
import { newestMail, pageWatchingErrors } from './browser';

export const screenshotDir =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(__dirname, '..', '..', 'docs', 'screenshots')
    : mkdtempSync(join(tmpdir(), 'dashboard-screenshots-'));

/** A local server for one test file: fresh tables (`prefix` names them), fast hashing, mail written to `outbox`. */
export async function startDashboardApp(prefix: string, env: Record<string, string> = {}): Promise<{ app: LocalApp; outbox: string }> {
  const outbox = join(mkdtempSync(join(tmpdir(), `${prefix}-browser-`)), 'outbox');
  const app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `${prefix}-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', MAIL_OUTBOX_DIR: outbox, ...env },
  });
  return { app, outbox };
}

/** The sign-in page, then the mailed code when one is asked for. */
export async function signInToDashboard(page: Page, outbox: string, email: string, password: string): Promise<void> {
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await page.waitForLoadState();
  if (await page.$('#code')) {
    await page.fill('#code', await newestMail(outbox, email, /sign-in code is ([0-9]{6})/));
    await page.click('form[action="/api/auth/otp"] button[type=submit]');
    await page.waitForLoadState();
  }
}

/** A refused form shows its reason: fail with it rather than with a missing element. */
export async function noRefusal(page: Page): Promise<void> {
  const refusal = await page.$('.error');
  if (refusal) throw new Error(`the dashboard refused: ${await refusal.textContent()}`);
}

/** `secret`: the selector of a shown-once value, painted over so no committed picture holds a credential. */
export function shot(page: Page, name: string, secret?: string): Promise<Buffer> {
  mkdirSync(screenshotDir, { recursive: true });
  return page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true, mask: secret ? [page.locator(secret)] : [] });
}

/** A fresh page, its console errors collected (CSP violations among them), signed in to the dashboard as the bootstrap admin. */
export async function adminDashboardPage(
  browser: Browser,
  app: LocalApp,
  outbox: string,
): Promise<{ page: Page; consoleErrors: string[] }> {
  const watched = await pageWatchingErrors(browser);
  await watched.page.goto(`${app.url}/dashboard`);
  await signInToDashboard(watched.page, outbox, app.bootstrap.admin.email, app.bootstrap.admin.password);
  return watched;
}
