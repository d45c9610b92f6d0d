/**
 * The dashboard's settings page (behaviour DASH-6, SITE-1..SITE-4): the title and MFA
 * policy, and the logo uploaded as multipart/form-data or removed, through the same core functions
 * as the admin API (so the same checks: the type from the bytes, no SVG, 512 KiB); every change
 * audited `site.*` with the admin as actor and listed by the audit log (LOG-9). Bad input is a page
 * (never a 500) and changes nothing. On tables of this file's own: the settings are one item.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { csrfTokenOf } from '../../lambdas/presentation/dashboard/guard';
import { handler } from '../support/dashboard-handler';
import type { User } from '../../lambdas/core/model';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getSessions } from '../../lambdas/wiring/repositories';
import { getSite } from '../../lambdas/wiring/site';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { jpegHeader, png, svgWithScript } from '../support/images';
import { useOwnTables } from '../support/own-tables';
import { createUser } from '../support/fixtures';

useOwnTables();

interface Session {
  readonly user: User;
  readonly cookie: string;
  readonly csrf: string;
}

let admin: Session;
beforeAll(async () => {
  const user = await createUser({ admin: true, test: false });
  const id = randomBytes(32).toString('base64url');
  const authTime = Math.floor(Date.now() / 1000);
  await getSessions().createSession(
    id,
    { userId: user.id, authTime, amr: ['pwd', 'otp', 'mfa'], expiresAtEpoch: authTime + 3600 },
    new Date().toISOString(),
  );
  admin = { user, cookie: `__Host-session=${id}`, csrf: csrfTokenOf(id) };
});

const browser = () => ({ Accept: 'text/html', Cookie: admin.cookie, 'Sec-Fetch-Site': 'same-origin' });

function call(method: 'GET' | 'POST', resource: string, headers: Record<string, string>, body?: string, isBase64Encoded = false) {
  const proxy = resource === '/dashboard/logo' ? undefined : resource.replace(/^\/dashboard\//, '');
  const event = apiGatewayEvent({
    method,
    path: resource,
    resource: proxy === undefined ? resource : '/dashboard/{proxy+}',
    headers,
    ...(proxy !== undefined ? { pathParameters: { proxy } } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  return handler({ ...event, isBase64Encoded }, lambdaContext);
}

const postForm = (resource: string, fields: Record<string, string>) =>
  call('POST', resource, { ...browser(), 'Content-Type': 'application/x-www-form-urlencoded' }, new URLSearchParams(fields).toString());

/** A browser's multipart body, base64 as API Gateway passes a binaryMediaTypes body. */
function postMultipart(
  fields: Record<string, string>,
  file?: { bytes: Buffer; type: string; name?: string },
  boundary = '----dashboardTest7MA4YWxkTrZu0gW',
) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="${file.name ?? 'logo'}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return call(
    'POST',
    '/dashboard/logo',
    { ...browser(), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    Buffer.concat(parts).toString('base64'),
    true,
  );
}

const header = (response: APIGatewayProxyResult, name: string) =>
  Object.entries(response.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

async function siteAudit() {
  const now = Date.now();
  const page = await getAuditLog().page({
    from: new Date(now - 3_600_000).toISOString(),
    to: new Date(now + 60_000).toISOString(),
    types: ['site.settings.update', 'site.logo.update', 'site.logo.delete'],
    limit: 100,
  });
  return page.items;
}

const current = () => getSite().current();

describe('behaviour DASH-6, SITE-1, SITE-2: title and MFA policy', () => {
  it('shows the settings, saves title and policy, audits site.settings.update with the admin as actor', async () => {
    const page = await call('GET', '/dashboard/settings', browser());
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('value="Tollgate"');
    const saved = await postForm('/dashboard/settings', { csrf: admin.csrf, title: 'Acme sign-in', mfa_policy: 'everyone' });
    expect(saved.statusCode).toBe(303);
    expect(await current()).toMatchObject({ title: 'Acme sign-in', mfaPolicy: 'everyone', mfaPolicySource: 'setting' });
    const [entry] = await siteAudit();
    expect(entry).toMatchObject({
      type: 'site.settings.update',
      actor: { kind: 'admin-user', userId: admin.user.id },
      changes: { title: { from: null, to: 'Acme sign-in' }, mfa_policy: { from: null, to: 'everyone' } },
    });
    // The empty choice returns to MFA_POLICY.
    expect((await postForm('/dashboard/settings', { csrf: admin.csrf, title: 'Acme sign-in', mfa_policy: '' })).statusCode).toBe(303);
    expect(await current()).toMatchObject({ mfaPolicySource: 'environment' });
  });

  it.each([
    ['an empty title', { title: '' }],
    ['a title with a line break', { title: 'two\nlines' }],
    ['an unknown policy', { title: 'ok', mfa_policy: 'sometimes' }],
    ['nothing to change', {}],
  ])('refuses %s with a 400 page and changes nothing', async (_what, fields) => {
    const before = await current();
    const auditBefore = (await siteAudit()).length;
    const response = await postForm('/dashboard/settings', { csrf: admin.csrf, ...(fields as Record<string, string>) });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/class="error"/);
    expect((await current()).version).toBe(before.version);
    expect((await siteAudit()).length).toBe(auditBefore);
  });
});

describe('behaviour DASH-6, SITE-3, SITE-4: the logo', () => {
  it('uploads a PNG (multipart), shows it with img-src for its origin only, audits site.logo.update; removing audits site.logo.delete', async () => {
    const uploaded = await postMultipart({ csrf: admin.csrf }, { bytes: png(2, 2), type: 'image/png' });
    expect(uploaded.statusCode).toBe(303);
    const logo = (await current()).logo!;
    expect(logo).toMatchObject({ contentType: 'image/png', width: 2, height: 2 });
    const page = await call('GET', '/dashboard/settings', browser());
    expect(page.body).toContain(`src="https://jwks.example.test/${logo.key}"`);
    expect(header(page, 'Content-Security-Policy')).toMatch(/; img-src https:\/\/jwks\.example\.test$/);
    expect((await siteAudit())[0]).toMatchObject({ type: 'site.logo.update', actor: { kind: 'admin-user', userId: admin.user.id } });

    const removed = await postForm('/dashboard/logo', { csrf: admin.csrf, remove: 'logo' });
    expect(removed.statusCode).toBe(303);
    expect((await current()).logo).toBeUndefined();
    expect((await siteAudit())[0]).toMatchObject({ type: 'site.logo.delete' });
  });

  it.each([
    ['an SVG', () => postMultipart({ csrf: admin.csrf }, { bytes: svgWithScript, type: 'image/svg+xml' }), 415],
    ['JPEG bytes declared as PNG', () => postMultipart({ csrf: admin.csrf }, { bytes: jpegHeader(10, 10), type: 'image/png' }), 400],
    [
      'a picture over 1024x1024',
      () => postMultipart({ csrf: admin.csrf }, { bytes: png(2000, 10, { pixels: false }), type: 'image/png' }),
      400,
    ],
    [
      'over 512 KiB',
      () => postMultipart({ csrf: admin.csrf }, { bytes: Buffer.concat([png(1, 1), Buffer.alloc(530 * 1024)]), type: 'image/png' }),
      413,
    ],
    ['no file', () => postMultipart({ csrf: admin.csrf }), 400],
    [
      'a body that is not multipart as declared',
      () => call('POST', '/dashboard/logo', { ...browser(), 'Content-Type': 'multipart/form-data; boundary=x' }, 'garbage'),
      400,
    ],
    ['no CSRF field', () => postMultipart({}, { bytes: png(1, 1), type: 'image/png' }), 403],
  ])('refuses %s with a page, stores and audits nothing', async (_what, send, status) => {
    const before = await current();
    const auditBefore = (await siteAudit()).length;
    const response = await send();
    expect(response.statusCode).toBe(status);
    expect(header(response, 'Content-Type')).toMatch(/^text\/html/);
    expect((await current()).version).toBe(before.version);
    expect((await siteAudit()).length).toBe(auditBefore);
  });
});
