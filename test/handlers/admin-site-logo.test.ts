/**
 * The site logo through the admin API (behaviour SITE-3): what is refused (SVG, a type
 * that does not match the bytes, over 512 KiB, over 1024x1024 pixels, non-admins), each a readable
 * 4xx with nothing stored; what is kept (a content-addressed object, the settings, the audit entry);
 * replacing and deleting. On tables of this file's own: the settings item is one per deployment.
 */
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { handler as getSettings } from '../../lambdas/handlers/admin/settings-get';
import { handler as deleteLogo } from '../../lambdas/handlers/admin/site-logo-delete';
import { handler as putLogo } from '../../lambdas/handlers/admin/site-logo-put';
import { handler as updateSettings } from '../../lambdas/handlers/admin/settings-update';
import { handler as forgotPasswordPage } from '../../lambdas/handlers/forgot-password-page';
import { handler as resetPasswordPage } from '../../lambdas/handlers/reset-password-page';
import { handler as signInPage } from '../../lambdas/handlers/sign-in-page';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { adminClientToken, createClient, createUser, createUserWithPassword, issueAccessToken } from '../support/fixtures';
import { mailsTo } from '../support/account';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { useOutbox } from '../support/api-keys';
import { browserHeaders, form } from '../support/authorization';
import { callAdmin, ensureScopes, auditPartition } from '../support/admin-calls';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { jpegHeader, png, svgWithScript, webpLosslessHeader } from '../support/images';
import { useOwnTables } from '../support/own-tables';

useOwnTables();

const assetsDir = process.env.SITE_ASSETS_DIR!;
const cdn = process.env.JWKS_CDN_BASE_URL!;
let token: string;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  token = (await adminClientToken()).token;
});

function upload(bytes: Buffer, contentType: string | undefined, as: string | null = token): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  if (as) headers.Authorization = `Bearer ${as}`;
  if (contentType) headers['Content-Type'] = contentType;
  // As API Gateway passes a body of one of the API's binaryMediaTypes.
  const event = {
    ...apiGatewayEvent({ method: 'PUT', path: '/api/admin/site-logo', headers, body: bytes.toString('base64') }),
    isBase64Encoded: true,
  };
  return putLogo(event, lambdaContext);
}
const remove = () => callAdmin(deleteLogo, { token, method: 'DELETE', path: '/api/admin/site-logo' });
const settings = async () => jsonBody(await callAdmin(getSettings, { token }));
const storedObjects = () => (existsSync(join(assetsDir, 'branding')) ? readdirSync(join(assetsDir, 'branding')).sort() : []);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const auditTypes = async () => (await auditPartition(partitions.siteAudit)).map((entry) => String(entry.type));

/** The refusal is readable, and neither the settings, the stored objects nor the audit log changed. */
async function expectRefused(result: APIGatewayProxyResult, status: number, message: string | RegExp): Promise<void> {
  expect(result.statusCode).toBe(status);
  expect(String(jsonBody(result).error_description)).toMatch(message);
}

describe('refusals (behaviour SITE-3): a readable 4xx, and nothing stored', () => {
  let before: { settings: Record<string, unknown>; objects: string[]; audit: string[] };
  beforeEach(async () => {
    before = { settings: await settings(), objects: storedObjects(), audit: await auditTypes() };
  });
  afterEach(async () => {
    expect(await settings()).toEqual(before.settings);
    expect(storedObjects()).toEqual(before.objects);
    expect(await auditTypes()).toEqual(before.audit);
  });

  it('SVG sent as image/svg+xml: 415, SVG can carry script (OWASP File Upload)', async () => {
    await expectRefused(await upload(svgWithScript, 'image/svg+xml'), 415, /SVG logos are refused: SVG is XML that can carry script/);
  });

  it('SVG sent as image/png: 400, the bytes decide (ASVS 5.2.2)', async () => {
    await expectRefused(await upload(svgWithScript, 'image/png'), 400, /SVG or other markup, which is refused/);
  });

  it('PNG bytes sent as image/jpeg: 400 naming both types', async () => {
    await expectRefused(await upload(png(2, 2), 'image/jpeg'), 400, 'The bytes are a PNG image but were sent as image/jpeg');
  });

  it('JPEG bytes sent as image/webp: 400', async () => {
    await expectRefused(await upload(jpegHeader(10, 10), 'image/webp'), 400, 'The bytes are a JPEG image but were sent as image/webp');
  });

  it('bytes of no known image type: 400', async () => {
    await expectRefused(await upload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/png'), 400, 'not a PNG, JPEG or WebP image');
  });

  it('a GIF content type, or none: 415 listing the accepted types', async () => {
    await expectRefused(await upload(png(1, 1), 'image/gif'), 415, 'image/png, image/jpeg, image/webp');
    await expectRefused(await upload(png(1, 1), undefined), 415, 'no Content-Type');
  });

  it('513 KiB: 413, at most 512 KiB', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(513 * 1024)]);
    await expectRefused(await upload(big, 'image/png'), 413, /at most 524288 \(512 KiB\)|over 524288 bytes/);
  });

  it.each([
    ['PNG', png(5000, 5000, { pixels: false }), 'image/png', '5000x5000'],
    ['JPEG', jpegHeader(1025, 20), 'image/jpeg', '1025x20'],
    ['WebP', webpLosslessHeader(20, 1025), 'image/webp', '20x1025'],
  ])('a %s over 1024x1024 pixels, read from its header (ASVS 5.2.6 pixel flood): 400', async (_type, bytes, contentType, size) => {
    await expectRefused(await upload(bytes, contentType), 400, `The logo is ${size} pixels; at most 1024x1024`);
  });

  it('an empty body, a PNG cut short: 400', async () => {
    await expectRefused(await upload(Buffer.alloc(0), 'image/png'), 400, 'no image');
    await expectRefused(await upload(png(1, 1).subarray(0, 20), 'image/png'), 400, 'cut short or malformed');
  });

  it('no token: 401; a token without admin power: 403 (behaviour ADMIN-1, ADMIN-2)', async () => {
    await expectRefused(await upload(png(1, 1), 'image/png', null), 401, /./);
    const client = await createClient({ scopes: ['openid'] });
    const user = await createUser();
    const plain = await issueAccessToken({ clientId: client.clientId, sub: user.id, scopes: ['openid'] });
    await expectRefused(await upload(png(1, 1), 'image/png', plain.token), 403, /./);
    expect((await callAdmin(deleteLogo, { token: plain.token, method: 'DELETE' })).statusCode).toBe(403);
  });
});

describe('upload, replace, delete (behaviour SITE-3, SITE-4)', () => {
  it('a 1x1 PNG is stored under branding/logo-<sha256>.png, named in the settings with its CDN URL, audited', async () => {
    const image = png(1, 1);
    const result = await upload(image, 'image/png');
    expect(result.statusCode).toBe(200);
    const key = `branding/logo-${sha256(image)}.png`;
    expect(jsonBody(result).logo).toEqual({ url: `${cdn}/${key}`, content_type: 'image/png', width: 1, height: 1, bytes: image.length });
    expect(readFileSync(join(assetsDir, key))).toEqual(image);
    expect((await settings()).logo).toMatchObject({ url: `${cdn}/${key}` });
    expect((await auditTypes()).at(-1)).toBe('site.logo.update');
  });

  it('a Content-Type with parameters and upper case still counts as its media type', async () => {
    const image = png(3, 2, { rgba: [1, 2, 3, 255] });
    expect((await upload(image, 'IMAGE/PNG; charset=binary')).statusCode).toBe(200);
    expect((await settings()).logo).toMatchObject({ width: 3, height: 2 });
  });

  it('a new logo replaces the old one: the old object is deleted after the settings stop naming it', async () => {
    const first = png(4, 4, { rgba: [9, 9, 9, 255] });
    const second = png(1024, 1, { rgba: [8, 8, 8, 255] });
    expect((await upload(first, 'image/png')).statusCode).toBe(200);
    expect(storedObjects()).toContain(`logo-${sha256(first)}.png`);
    expect((await upload(second, 'image/png')).statusCode).toBe(200);
    expect(storedObjects()).toEqual([`logo-${sha256(second)}.png`]);
    expect((await settings()).logo).toMatchObject({ width: 1024, height: 1 });
  });

  it('the same image again changes nothing and audits nothing', async () => {
    const image = png(5, 5, { rgba: [7, 7, 7, 255] });
    await upload(image, 'image/png');
    const audit = (await auditTypes()).length;
    const version = (await settings()).version;
    expect((await upload(image, 'image/png')).statusCode).toBe(200);
    expect((await auditTypes()).length).toBe(audit);
    expect((await settings()).version).toBe(version);
    expect(storedObjects()).toEqual([`logo-${sha256(image)}.png`]);
  });

  it('DELETE removes the logo and its object, audited; a second DELETE is a 204 that writes nothing', async () => {
    await upload(png(6, 6), 'image/png');
    expect((await remove()).statusCode).toBe(204);
    expect((await settings()).logo).toBeNull();
    expect(storedObjects()).toEqual([]);
    expect((await auditTypes()).at(-1)).toBe('site.logo.delete');
    const audit = (await auditTypes()).length;
    expect((await remove()).statusCode).toBe(204);
    expect((await auditTypes()).length).toBe(audit);
  });
});

describe('pages and mails show the title and logo (behaviour SITE-4)', () => {
  const outbox = useOutbox();
  const page = async (handler: typeof signInPage, path: string, query?: Record<string, string>) =>
    handler(apiGatewayEvent({ path, headers: { Accept: 'text/html' }, ...(query ? { query } : {}) }), lambdaContext);
  let key: string;

  beforeAll(async () => {
    const image = png(2, 2, { rgba: [200, 10, 10, 255] });
    expect((await upload(image, 'image/png')).statusCode).toBe(200);
    key = `branding/logo-${sha256(image)}.png`;
    const titled = await callAdmin(updateSettings, { token, method: 'PATCH', body: { title: 'Example <Corp> & Co' } });
    expect(titled.statusCode).toBe(200);
  });

  it.each([
    ['the sign-in page', signInPage, '/api/auth/signin', undefined],
    ['the forgot-password page', forgotPasswordPage, '/forgot-password', undefined],
    ['the reset page (a dead link)', resetPasswordPage, '/reset-password', { token: 'x'.repeat(43) }],
  ])('%s: the escaped title and the logo, whose origin alone the CSP allows for images', async (_what, handler, path, query) => {
    const result = await page(handler, path, query);
    expect(result.body).toContain('<span>Example &lt;Corp&gt; &amp; Co</span>');
    expect(result.body).toContain(`<img src="${cdn}/${key}" alt="" height="48">`);
    expect(result.body).not.toContain('<!--brand-->');
    expect(String(result.headers!['Content-Security-Policy'])).toMatch(new RegExp(`; img-src ${new URL(cdn).origin}$`));
  });

  it('a mail (the sign-in code) gets the title as signature and an HTML part with the logo', async () => {
    const who = await createUserWithPassword({ admin: true });
    const signedIn = await signInHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/auth/signin',
        headers: browserHeaders(),
        body: form({ email: who.user.email!, password: who.password }),
      }),
      lambdaContext,
    );
    expect(signedIn.statusCode).toBe(200);
    const [mail] = mailsTo(outbox, who.user.email!);
    expect(mail!.text).toMatch(/Your sign-in code is [0-9]{6}\.[\s\S]*\n-- \nExample <Corp> & Co\n$/);
    expect(mail!.html).toContain(`<img src="${cdn}/${key}"`);
    expect(mail!.html).toContain('Example &lt;Corp&gt; &amp; Co');
    expect(mail!.html).not.toContain('<Corp>');
  });

  it('without a logo the pages show the title alone and allow no images', async () => {
    expect((await remove()).statusCode).toBe(204);
    const result = await page(signInPage, '/api/auth/signin');
    expect(result.body).toContain('<header class="brand"><span>Example &lt;Corp&gt; &amp; Co</span></header>');
    expect(result.body).not.toContain('<img');
    expect(String(result.headers!['Content-Security-Policy'])).not.toContain('img-src');
  });
});

describe('database trouble: nothing half-written (behaviour SITE-3, ERR rules)', () => {
  let faults: DynamoFaults;
  beforeEach(() => (faults = DynamoFaults.install()));
  afterEach(() => faults.uninstall());
  const settingsWrite = { operation: 'TransactWriteItems', where: (a: Attempt) => touches(a, 'SITE') } as const;

  it('the settings write fails for good: a 5xx, the old logo stays named and stored, the new object is removed, nothing audited', async () => {
    const old = png(7, 7, { rgba: [1, 1, 1, 255] });
    expect((await upload(old, 'image/png')).statusCode).toBe(200);
    const before = { settings: await settings(), audit: await auditTypes() };
    faults.fail({ ...settingsWrite, phase: 'before' });
    const result = await upload(png(8, 8, { rgba: [2, 2, 2, 255] }), 'image/png');
    faults.clear();
    expect(result.statusCode).toBeGreaterThanOrEqual(500);
    expect(jsonBody(result).error).toMatch(/^(temporarily_unavailable|server_error)$/);
    expect(await settings()).toEqual(before.settings);
    expect(storedObjects()).toEqual([`logo-${sha256(old)}.png`]);
    expect(await auditTypes()).toEqual(before.audit);
  });

  it('the reply of the settings write is lost once: the SDK resends it with the same ClientRequestToken, and it lands once, audited once', async () => {
    const audit = (await auditTypes()).length;
    faults.fail({ ...settingsWrite, phase: 'after', times: 1 });
    const image = png(9, 9, { rgba: [3, 3, 3, 255] });
    const result = await upload(image, 'image/png');
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(result.statusCode).toBe(200);
    expect((await auditTypes()).length).toBe(audit + 1);
    expect((await settings()).logo).toMatchObject({ width: 9, height: 9 });
    expect(storedObjects()).toEqual([`logo-${sha256(image)}.png`]);
  });
});
