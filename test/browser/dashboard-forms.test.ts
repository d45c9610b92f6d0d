/**
 * The dashboard's forms in Chromium (behaviour DASH-13..DASH-17), against the local server with
 * its own tables: a client, an API key and a rotated secret each shown once on the page the form
 * redirects to (a reload says it was shown, Back creates nothing), a refused form back filled in,
 * the client form's defaults and newer fields, deletions naming what depends on the thing, and
 * the grant select that is never empty. No console errors beyond the statuses the steps expect,
 * no CSP violations. Screenshots: dashboard-client-new, dashboard-environments,
 * dashboard-environment-delete (test/support/dashboard-browser.ts says where they go).
 *
 * Run with `npm run test:browser`.
 */
import { exportJWK, generateKeyPair } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { listApiKeys } from '../../lambdas/core/api-keys/list-and-revoke';
import type { LocalApp } from '../../lambdas/local/app';
import { getApiKeyAdmin } from '../../lambdas/wiring/api-keys';
import { getClientRepository, getUsers } from '../../lambdas/wiring/repositories';
import { launchChromium } from '../support/browser';
import { adminDashboardPage, noRefusal, shot, startDashboardApp } from '../support/dashboard-browser';
import { createUserWithPassword, type TestUser } from '../support/fixtures';

let outbox: string;
let app: LocalApp;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let plainUser: TestUser;

beforeAll(async () => {
  browser = await launchChromium();
  ({ app, outbox } = await startDashboardApp('dforms'));
  const made = await createUserWithPassword({ environments: [app.bootstrap.environments.defaultId], name: 'Forms User' });
  // Not a test user: behaviour KEY-3 binds test users to test clients only, and the dashboard makes real ones.
  plainUser = { ...made, user: await getUsers().update(made.user, { test: false }, new Date().toISOString()) };
  ({ page, consoleErrors } = await adminDashboardPage(browser, app, outbox));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const staticClientCount = async () => (await getClientRepository().list('static', 100)).entries.length;
const path = () => new URL(page.url()).pathname;
/** Behaviour DASH-13: the handle is in the query string (which the WAF and access logs leave out), never in the path. */
const expectShownOnceAddress = (segment: string) => {
  const url = new URL(page.url());
  expect(url.pathname).toMatch(new RegExp(`^/dashboard/clients/[^/]+/${segment}$`));
  expect(url.searchParams.get('handle')).toMatch(/^[A-Za-z0-9_-]{43}$/);
};

describe('the dashboard forms in Chromium', () => {
  let clientId: string;

  it('behaviour DASH-15: the create form starts on Default and offers the catalog scopes as checkboxes', async () => {
    await page.goto(`${app.url}/dashboard/clients/new`);
    expect(await page.inputValue('#environment_id')).toBe(app.bootstrap.environments.defaultId);
    expect(await page.textContent('#scopes')).toContain('Read your name');
    expect(await page.locator('#scopes input[type=checkbox]').count()).toBeGreaterThanOrEqual(3);
    await shot(page, 'dashboard-client-new');
  });

  it('behaviour DASH-13: a client secret is shown once; a reload says it was shown; Back creates no second client', async () => {
    const before = await staticClientCount();
    await page.fill('#name', 'Shown-once service');
    await page.check('input[name="scope:profile"]');
    await page.click('main button[type=submit]');
    await noRefusal(page);
    expectShownOnceAddress('created');
    const secret = (await page.textContent('#client-secret'))!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    clientId = (await page.textContent('#client-id'))!;
    expect(await staticClientCount()).toBe(before + 1);

    await page.reload();
    expect(await page.textContent('#already-shown')).toMatch(/already shown/);
    expect(await page.content()).not.toContain(secret);
    await page.goBack();
    expect(path()).toBe('/dashboard/clients/new');
    expect(await staticClientCount()).toBe(before + 1);
    expect((await getClientRepository().get(clientId))?.scopes).toEqual(['profile']);
  });

  it('behaviour DASH-13: an API key the same way', async () => {
    await page.goto(`${app.url}/dashboard/clients/${clientId}`);
    await page.fill('#key-user', plainUser.user.email!);
    await page.click('form[action$="/keys"] button[type=submit]');
    await noRefusal(page);
    expectShownOnceAddress('new-key');
    const apiKey = (await page.textContent('#api-key'))!;
    await page.reload();
    expect(await page.textContent('#already-shown')).toMatch(/This API key was already shown/);
    expect(await page.content()).not.toContain(apiKey);
    await page.goBack();
    expect(path()).toBe(`/dashboard/clients/${clientId}`);
    const keys = await listApiKeys(getApiKeyAdmin(), { kind: 'admin', actor: { kind: 'admin-user', userId: 'test' } }, clientId, 10);
    expect(keys.items).toHaveLength(1);
  });

  it('behaviour DASH-13: a rotated secret the same way', async () => {
    await page.goto(`${app.url}/dashboard/clients/${clientId}/secret`);
    await page.click('main button[type=submit]');
    await noRefusal(page);
    expectShownOnceAddress('new-secret');
    const fresh = (await page.textContent('#client-secret'))!;
    expect(await page.textContent('#previous-secret')).toMatch(/keeps working until/);
    const hash = (await getClientRepository().get(clientId))?.secretHash;
    await page.reload();
    expect(await page.textContent('#already-shown')).toMatch(/This secret was already shown/);
    expect(await page.content()).not.toContain(fresh);
    expect((await getClientRepository().get(clientId))?.secretHash).toBe(hash);
  });

  it('behaviour DASH-14: a refused form comes back filled in with the problem beside its field; corrected, it is created', async () => {
    const before = await staticClientCount();
    await page.goto(`${app.url}/dashboard/clients/new`);
    await page.selectOption('#type', 'public');
    await page.fill('#name', 'Refilled app');
    await page.check('input[name="scope:openid"]');
    await page.fill('#redirect_uris', 'http://app.example.test/callback');
    await page.click('main button[type=submit]');
    expect(await page.textContent('#redirect_uris-error')).toBeTruthy();
    expect(await page.inputValue('#name')).toBe('Refilled app');
    expect(await page.inputValue('#type')).toBe('public');
    expect(await page.isChecked('input[name="scope:openid"]')).toBe(true);
    expect(await page.inputValue('#redirect_uris')).toBe('http://app.example.test/callback');
    expect(await staticClientCount()).toBe(before);

    await page.fill('#redirect_uris', 'https://app.example.test/callback');
    await page.click('main button[type=submit]');
    await noRefusal(page);
    expect(await page.textContent('.notice')).toBe('The client was created.');
    expect(await staticClientCount()).toBe(before + 1);
  });

  it('behaviour TOKEN-9, AUTHZ-18, REFRESH-7, ADMIN-19: the newer fields of the client form, set and shown', async () => {
    await page.goto(`${app.url}/dashboard/clients/new`);
    await page.selectOption('#type', 'public');
    await page.fill('#name', 'Strict app');
    await page.fill('#redirect_uris', 'https://strict.example.test/callback');
    await page.fill('#refresh_grace_seconds', '30');
    await page.check('input[name=require_pushed_authorization_requests]');
    await page.check('input[name=dpop_bound_access_tokens]');
    await page.click('main button[type=submit]');
    await noRefusal(page);
    expect(await page.textContent('#par-required')).toBe('required');
    expect(await page.textContent('#refresh-grace')).toBe('30 s');
    expect(await page.textContent('table')).toContain('DPoP required');

    const { publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'forms-key' };
    await page.goto(`${app.url}/dashboard/clients/new`);
    await page.fill('#name', 'Keyed service');
    await page.fill('#jwks', JSON.stringify({ keys: [jwk] }));
    await page.selectOption('#token_endpoint_auth_signing_alg', 'ES256');
    await page.click('main button[type=submit]');
    await noRefusal(page);
    expect(await page.textContent('#authentication')).toBe('private_key_jwt, keys forms-key (ES256 only)');
  });

  it('behaviour DASH-16: the environments page marks the self-registration one; a deletion names the clients and offers no button', async () => {
    await page.goto(`${app.url}/dashboard/environments`);
    const dcrRow = `tr[data-environment-id="${app.bootstrap.environments.dcrId}"]`;
    expect(await page.textContent(dcrRow)).toContain('kept');
    expect(await page.locator(`${dcrRow} a:text-is("Delete…")`).count()).toBe(0);
    await shot(page, 'dashboard-environments');
    await page.click(`tr[data-environment-id="${app.bootstrap.environments.defaultId}"] a:text-is("Delete…")`);
    expect(await page.textContent('#dependent-clients')).toContain(clientId);
    expect(await page.locator('form[action$="/delete"]').count()).toBe(0);
    await shot(page, 'dashboard-environment-delete');

    await page.goto(`${app.url}/dashboard/scopes/delete?name=profile`);
    expect(await page.textContent('#dependent-clients')).toContain(clientId);
    expect(await page.locator('form[action="/dashboard/scopes/remove"]').count()).toBe(0);
    await page.goto(`${app.url}/dashboard/clients/${clientId}/delete`);
    expect(await page.textContent('#dependent-keys')).toBe('1 active API key');
  });

  it('behaviour DASH-17: once every environment is granted the user page says so instead of an empty select', async () => {
    await page.goto(`${app.url}/dashboard/users/${plainUser.user.id}`);
    while ((await page.locator('select#environment_id').count()) > 0) {
      await page.click('form[action$="/environments"] button[type=submit]');
      await noRefusal(page);
    }
    expect(await page.textContent('#all-granted')).toBe('Every environment is already granted.');
  });

  it('no console errors but the statuses the steps expect (a refused form, a shown-once page loaded again), no CSP violations', () => {
    expect(consoleErrors.filter((e) => !/status of 4(00|10)/.test(e))).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
