/**
 * Every GET page of the dashboard in Chromium, read from the router's own list
 * (`dashboardRoutePaths`), so a page added later is walked without touching this file, or fails
 * here until its `:param` has a value below. With one of everything seeded (a static, a dynamic and a
 * confidential client with an API key, users, a scope, a trusted issuer, a logo), the bootstrap
 * admin gets 200, an `h1`, the headers of behaviour DASH-2 and no console error or CSP
 * violation on each page, never a hash or a secret in it, and every `/dashboard` link on it
 * answers below 400; walking changes nothing stored (the dashboard's GETs are safe, RFC 9110
 * 9.2.1). An unknown id in a page's address is a 404 page in the dashboard frame (DASH-4). A plain
 * user gets 403 from every page and sees nothing of anyone else (DASH-1).
 *
 * Run with `npm run test:browser`.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page, Response } from 'playwright-core';
import type { LocalApp } from '../../lambdas/local/app';
import { dashboardRoutePaths } from '../../lambdas/presentation/dashboard/router';
import { getStorage } from '../../lambdas/wiring/storage';
import { launchChromium, pageWatchingErrors } from '../support/browser';
import { shot, signInToDashboard, startDashboardApp } from '../support/dashboard-browser';
import { createClient, createClientWithSecret, createTrustedIssuer, createUser, createUserWithPassword } from '../support/fixtures';
import { png } from '../support/images';
import { call, clientCredentialsToken } from '../support/local-http';

/**
 * The value of each `:param`, named by the segment before it (`clients/:id` is a client's id,
 * `users/:id` a user's): a route whose params are not here fails the first test by name.
 */
const params: Record<string, string> = {};

/** The query a page cannot be shown without (its confirmation names the thing), by route path. */
const queries: Record<string, string> = {};

/** Seeded records the walk also visits beside the ones `params` names: every kind of client and user has its page. */
const alsoVisited: string[] = [];

/** What no page may show: secrets and hashes of the seeded records. */
const secrets: string[] = [];

/** What a plain user's page may not show: the others' addresses, names and ids. */
const othersData: string[] = [];

let app: LocalApp;
let outbox: string;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let plain: { email: string; password: string };

const seededScope = 'walk:read';

beforeAll(async () => {
  browser = await launchChromium();
  ({ app, outbox } = await startDashboardApp('walk'));
  const environmentId = app.bootstrap.environments.defaultId;
  const adminToken = await clientCredentialsToken(
    app.url,
    app.bootstrap.adminClient.clientId,
    app.bootstrap.adminClient.clientSecret,
    'admin',
  );
  const admin = (method: string, path: string, body?: unknown) => call(app.url, method, path, { token: adminToken, body });

  // The header shows the logo on every page, so every page's CSP must allow it (behaviour SITE-4, DASH-6).
  const logo = await fetch(`${app.url}/api/admin/site-logo`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'image/png' },
    body: png(32, 32),
  });
  expect(logo.status).toBe(200);
  expect((await admin('POST', '/api/admin/scopes', { name: seededScope, description: 'Read the walk' })).status).toBe(201);

  // Not test records: behaviour KEY-3 binds test users to test clients only.
  const staticApp = await createClient({ kind: 'app', name: 'Walk static app', environmentId, test: false });
  const registered = await call(app.url, 'POST', '/api/register', {
    body: { client_name: 'Walk self-registered', redirect_uris: ['http://127.0.0.1:9/callback'] },
  });
  expect(registered.status).toBe(201);
  const dynamicId = String(registered.json.client_id);
  const { client: service, secret } = await createClientWithSecret({
    name: 'Walk service',
    environmentId,
    scopes: [seededScope],
    test: false,
  });
  const owner = await createUser({ name: 'Walk key owner', environments: [environmentId], test: false });
  const key = await admin('POST', `/api/admin/clients/${service.clientId}/api-keys`, { userId: owner.id, name: 'Walk key' });
  expect(key.status).toBe(201);
  const apiKey = String(key.json.api_key);
  // One exchange, so the activity page and the key's last use have a row to show.
  expect((await call(app.url, 'POST', '/api/token/api-key', { token: apiKey, form: { scope: seededScope } })).status).toBe(200);
  const { trustedIssuer } = await createTrustedIssuer({ environmentId, description: 'Walk IdP' });
  const plainUser = await createUserWithPassword({ name: 'Walk plain user', environments: [environmentId], test: false });
  plain = { email: plainUser.user.email!, password: plainUser.password };

  Object.assign(params, {
    'clients/:id': service.clientId,
    'users/:id': owner.id,
    'trusted-issuers/:id': trustedIssuer.trustedIssuerId,
    'environments/:id': environmentId,
  });
  Object.assign(queries, {
    'scopes/delete': `name=${encodeURIComponent(seededScope)}`,
    // A shown-once page is reached only by the redirect that made its handle, and shows it once (behaviour DASH-13):
    // the walk visits it with a handle never issued, which is the "already shown" page.
    'clients/:id/created': `handle=${neverIssuedHandle}`,
    'clients/:id/new-key': `handle=${neverIssuedHandle}`,
    'clients/:id/new-secret': `handle=${neverIssuedHandle}`,
  });
  alsoVisited.push(
    ...[staticApp.clientId, dynamicId].flatMap((id) => [`/dashboard/clients/${id}`, `/dashboard/clients/${id}/activity`]),
    `/dashboard/users/${plainUser.user.id}`,
    `/dashboard/users/${app.bootstrap.admin.userId}`,
  );
  secrets.push(secret!, service.secretHash!, apiKey, plainUser.password, plainUser.user.passwordHash!);
  secrets.push(app.bootstrap.admin.password, app.bootstrap.adminClient.clientSecret);
  othersData.push(app.bootstrap.admin.email, owner.email!, owner.id, 'Walk key owner', service.clientId, dynamicId, trustedIssuer.issuer);

  ({ page, consoleErrors } = await pageWatchingErrors(browser));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A shown-once page's answer to a handle it does not hold (behaviour DASH-13): 410, never the secret. */
const neverIssuedHandle = 'walkNeverIssuedHandle0000000000000000000000';
const isShownOncePage = (address: string) => /\/(created|new-key|new-secret)(\?|$)/.test(address);

/** `/dashboard/…` for a route path, its params filled from `values`; undefined when one has no value. */
function addressOf(routePath: string, values: Record<string, string | undefined> = params): string | undefined {
  const segments = routePath.split('/').filter((s) => s.length > 0);
  const filled = segments.map((segment, i) => (segment.startsWith(':') ? values[`${segments[i - 1]}/${segment}`] : segment));
  if (filled.some((s) => s === undefined)) return undefined;
  const query = queries[routePath];
  return `/dashboard${filled.map((s) => `/${encodeURIComponent(s!)}`).join('')}${query ? `?${query}` : ''}`;
}

const getRoutes = () => dashboardRoutePaths.filter((route) => route.method === 'GET');
/** The first test names the routes left out here. */
const walkedAddresses = () => [...getRoutes().flatMap((route) => addressOf(route.path) ?? []), ...alsoVisited];

/** Visits `address`; returns the answer and the console errors (CSP violations among them) it caused. */
async function visit(address: string): Promise<{ response: Response; errors: string[]; html: string }> {
  const before = consoleErrors.length;
  const response = await page.goto(`${app.url}${address}`);
  if (!response) throw new Error(`no answer for ${address}`);
  return { response, errors: consoleErrors.slice(before), html: await page.content() };
}

it('every GET route of the dashboard has its :params in the table of seeded values', () => {
  const unfilled = getRoutes()
    .filter((route) => addressOf(route.path) === undefined)
    .map((route) => route.path);
  if (unfilled.length > 0) {
    throw new Error(
      `No seeded value fills the :params of ${unfilled.join(', ')}: seed the record in beforeAll and add '<segment>/:<param>' to \`params\`.`,
    );
  }
  expect(getRoutes().length).toBeGreaterThan(10);
});

it('a plain user gets 403 from every GET page, which shows nothing of anyone else (behaviour DASH-1)', async () => {
  await page.goto(`${app.url}/api/auth/signin?return_to=%2Fdashboard`);
  await signInToDashboard(page, outbox, plain.email, plain.password);
  const problems: string[] = [];
  for (const address of walkedAddresses()) {
    const { response, errors, html } = await visit(address);
    if (response.status() !== 403) problems.push(`${address}: status ${response.status()}, not 403`);
    if (!html.includes('for administrators only')) problems.push(`${address}: not the "administrators only" page`);
    for (const shown of othersData.filter((value) => html.includes(value))) problems.push(`${address}: shows ${shown}`);
    // Chromium logs the 403 itself; anything else (a CSP violation) is a fault of the page.
    for (const error of errors.filter((e) => !/status of 403/.test(e))) problems.push(`${address}: console error ${error}`);
  }
  expect(problems).toEqual([]);
});

describe('the bootstrap admin', () => {
  /** Every `/dashboard` link seen on the walk, with the first page it was on. */
  const links = new Map<string, string>();
  let storedBefore: string[];

  beforeAll(async () => {
    await page.context().clearCookies();
    await page.goto(`${app.url}/dashboard`);
    await signInToDashboard(page, outbox, app.bootstrap.admin.email, app.bootstrap.admin.password);
    storedBefore = await storedItems();
  });

  it('gets 200 from every GET page, with an h1, the DASH-2 headers, no console error or CSP violation, and no hash or secret (behaviour DASH-2, DASH-6)', async () => {
    const problems: string[] = [];
    for (const address of walkedAddresses()) {
      const { response, errors, html } = await visit(address);
      const found: string[] = [];
      const expected = isShownOncePage(address) ? 410 : 200;
      if (response.status() !== expected) found.push(`status ${response.status()}, not ${expected}`);
      // A page may redirect to another dashboard page, never out of it (to the sign-in page: the session was not honoured).
      if (!new URL(page.url()).pathname.startsWith('/dashboard')) found.push(`ended at ${page.url()}`);
      if (!((await page.textContent('h1').catch(() => null)) ?? '').trim()) found.push('no h1');
      found.push(...dash2Problems(response.headers(), isShownOncePage(address) ? 'no-referrer' : 'same-origin'));
      // Chromium logs a 410 itself; anything else (a CSP violation) is a fault of the page.
      found.push(...errors.filter((e) => expected !== 410 || !/status of 410/.test(e)).map((e) => `console error ${e}`));
      if (html.includes('$argon2')) found.push('an Argon2 hash');
      if (secrets.some((s) => html.includes(s))) found.push('a secret');
      if (found.length > 0) {
        problems.push(...found.map((p) => `${address}: ${p}`));
        await shot(page, `walk-failed-${address.replace(/[^a-z0-9]+/gi, '-')}`);
      }
      for (const href of await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''))) {
        const target = new URL(href, page.url());
        if (target.origin === new URL(app.url).origin && target.pathname.startsWith('/dashboard') && !links.has(target.href)) {
          links.set(target.href, address);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('an unknown id in any page’s address is a 404 page in the dashboard frame, under the same CSP (behaviour DASH-4)', async () => {
    const unknown = Object.fromEntries(Object.keys(params).map((name) => [name, 'nosuch0000000000']));
    const problems: string[] = [];
    for (const route of getRoutes().filter((r) => r.path.includes(':'))) {
      const address = addressOf(route.path, unknown)!;
      const { response, errors } = await visit(address);
      const expected = isShownOncePage(address) ? 410 : 404;
      if (response.status() !== expected) problems.push(`${address}: status ${response.status()}, not ${expected}`);
      if (!(await page.$('header a[href="/dashboard/clients"]'))) problems.push(`${address}: not in the dashboard frame`);
      // Chromium logs the 404 itself; anything else (a CSP violation) is a fault of the page.
      for (const error of errors.filter((e) => !/status of 4(04|10)/.test(e))) problems.push(`${address}: console error ${error}`);
    }
    expect(problems).toEqual([]);
  });

  it('every /dashboard link on those pages answers below 400 with the same session', async () => {
    expect(links.size).toBeGreaterThan(10);
    const broken: string[] = [];
    // A link that reads like a state change is not followed; the dashboard signs out by a POST form, so none should match.
    for (const [href, on] of [...links].filter(([href]) => !/sign-?out|log-?out/i.test(href))) {
      const response = await page.request.get(href, { maxRedirects: 0 });
      const status = response.status();
      const found = status >= 400 ? [`status ${status}`] : status === 200 ? dash2Problems(response.headers()) : [];
      const location = new URL(response.headers().location ?? href, href);
      if (!location.pathname.startsWith('/dashboard')) found.push(`redirects out of the dashboard, to ${location.href}`);
      if ((await response.text()).includes('$argon2')) found.push('an Argon2 hash');
      broken.push(...found.map((problem) => `${href} (linked from ${on}): ${problem}`));
    }
    expect(broken).toEqual([]);
  });

  it('walking every page and link changed nothing stored: the dashboard’s GETs are safe (RFC 9110 9.2.1)', async () => {
    expect(await storedItems()).toEqual(storedBefore);
  });
});

/** Behaviour DASH-2: no-store, a CSP with no script, not framable, same-origin referrers. */
/** `referrer`: what the page must send; a shown-once page sends none at all (behaviour DASH-13: its query string holds the handle). */
function dash2Problems(headers: Record<string, string>, referrer = 'same-origin'): string[] {
  const csp = headers['content-security-policy'] ?? '';
  return [
    [/no-store/.test(headers['cache-control'] ?? ''), 'Cache-Control without no-store'],
    [csp.includes("default-src 'none'"), "a CSP without default-src 'none'"],
    [!csp.includes('script-src'), 'a CSP with script-src'],
    [csp.includes("frame-ancestors 'none'"), "a CSP without frame-ancestors 'none'"],
    [headers['x-frame-options'] === 'DENY', 'X-Frame-Options is not DENY'],
    [headers['referrer-policy'] === referrer, `Referrer-Policy is not ${referrer}`],
  ]
    .filter(([ok]) => !ok)
    .map(([, problem]) => problem as string);
}

/** Every item of the server's tables, sorted (a scan: a few hundred items in this file's own tables). */
async function storedItems(): Promise<string[]> {
  const { db, tables } = getStorage();
  const items: string[] = [];
  for (const table of Object.values(tables)) {
    let start: Record<string, unknown> | undefined;
    do {
      const scanned = await db.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
      items.push(...(scanned.Items ?? []).map((item) => `${table} ${JSON.stringify(Object.fromEntries(Object.entries(item).sort()))}`));
      start = scanned.LastEvaluatedKey;
    } while (start);
  }
  return items.sort();
}
