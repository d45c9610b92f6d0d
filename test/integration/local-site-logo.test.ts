/**
 * The logo through the local server (behaviour SITE-3, SITE-4): an image body sent over
 * HTTP reaches the handler intact (base64, as API Gateway passes binaryMediaTypes), is served at
 * /branding/* with nosniff as CloudFront serves it, and shows on the sign-in page. Own tables
 * and data folder: the settings item is one per deployment.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { png, svgWithScript } from '../support/images';

let app: LocalApp;
let dataDir: string;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-logo-test-'));
  app = await startLocalApp({
    port: 0,
    dataDir,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `logo-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL },
  });
  const { clientId, clientSecret } = app.bootstrap.adminClient;
  const response = await fetch(`${app.url}/api/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=admin',
  });
  expect(response.status).toBe(200);
  token = ((await response.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const put = (body: Buffer, contentType: string) =>
  fetch(`${app.url}/api/admin/site-logo`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
    body,
  });

it('a PNG sent over HTTP is stored byte for byte, served at /branding/* with nosniff, and shown on the sign-in page', async () => {
  const image = png(16, 16, { rgba: [0, 128, 0, 255] });
  const response = await put(image, 'image/png');
  expect(response.status).toBe(200);
  const { logo } = (await response.json()) as { logo: { url: string } };
  expect(logo.url).toMatch(new RegExp(`^${app.url}/branding/logo-[0-9a-f]{64}\\.png$`));

  const served = await fetch(logo.url);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(served.headers.get('cache-control')).toContain('immutable');
  expect(Buffer.from(await served.arrayBuffer())).toEqual(image);

  const signIn = await fetch(`${app.url}/api/auth/signin`, { headers: { Accept: 'text/html' } });
  expect(await signIn.text()).toContain(`<img src="${logo.url}"`);
  expect(signIn.headers.get('content-security-policy')).toContain(`img-src ${app.url}`);
});

it('SVG over HTTP is refused whatever it is labelled, and /branding/* serves only server-chosen names', async () => {
  expect((await put(svgWithScript, 'image/svg+xml')).status).toBe(415);
  expect((await put(svgWithScript, 'image/png')).status).toBe(400);
  for (const path of ['/branding/../signing-keys.json', '/branding/%2e%2e/signing-keys.json', '/branding/logo-x.svg']) {
    const response = await fetch(`${app.url}${path}`);
    expect(response.status).toBe(404);
  }
});
