/**
 * The local server in this process, on the run's shared DynamoDB Local with its own
 * tables: discovery, JWKS and health over HTTP, through the same handler modules.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigner } from '../../lambdas/adapters/signing/key-set';
import { fileKeySource } from '../../lambdas/adapters/signing/key-file';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';

let app: LocalApp;
let dataDir: string;
const tablePrefix = `local-${randomUUID().slice(0, 8)}-`;
const baseEnv = { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-local-test-'));
  app = await startLocalApp({ port: 0, dataDir, dynamoEndpoint: process.env.DYNAMODB_ENDPOINT, tablePrefix, env: baseEnv });
});

afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('local server', () => {
  it('serves RFC 8414 discovery with its own address as issuer and DCR enabled on the seeded environment', async () => {
    const response = await fetch(`${app.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.issuer).toBe(app.url);
    expect(body.jwks_uri).toBe(`${app.url}/jwks.json`);
    expect(body.registration_endpoint).toBe(`${app.url}/api/register`);
    expect(body.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
    expect(body.scopes_supported).not.toContain('admin');
  });

  it('serves OpenID Connect discovery and health', async () => {
    const oidc = await fetch(`${app.url}/.well-known/openid-configuration`);
    expect(oidc.status).toBe(200);
    expect(((await oidc.json()) as { issuer: string }).issuer).toBe(app.url);
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
  });

  it('serves a JWKS whose key verifies a token signed by the server signer, and publishes no private member', async () => {
    const jwksResponse = await fetch(`${app.url}/jwks.json`);
    const jwks = (await jwksResponse.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(jwks.keys[0]).not.toHaveProperty(member);

    const signer = await createSigner(await fileKeySource(join(dataDir, 'signing-keys.json'))());
    const token = await signer.sign(
      { iss: app.url, aud: 'https://mcp.example.test', sub: 'usr_1' },
      { expiresIn: 60, issuedAt: Math.floor(Date.now() / 1000) },
    );
    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(`${app.url}/jwks.json`)), {
      issuer: app.url,
      audience: 'https://mcp.example.test',
    });
    expect(payload.sub).toBe('usr_1');
    expect(protectedHeader.kid).toBe(jwks.keys[0]!.kid);
  });

  it('answers unknown routes with a 404 and wrong methods with a 405, both as OAuth JSON errors', async () => {
    const missing = await fetch(`${app.url}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not_found', error_description: 'No such endpoint.' });
    const wrongMethod = await fetch(`${app.url}/api/health`, {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expect(((await wrongMethod.json()) as { error: string }).error).toBe('method_not_allowed');
  });

  it('writes bootstrap.json with mode 0600 holding the issuer, environments and admin credentials', async () => {
    const file = await stat(app.bootstrapFile);
    expect(file.mode & 0o777).toBe(0o600);
    expect(app.firstStart).toBe(true);
    expect(app.bootstrap).toMatchObject({
      issuer: app.url,
      environments: { defaultId: expect.stringMatching(/^env_/), dcrId: expect.stringMatching(/^env_/) },
      admin: { userId: expect.stringMatching(/^usr_/), email: 'admin@example.com', password: expect.any(String) },
      adminClient: { clientId: expect.stringMatching(/^tgc_/), clientSecret: expect.any(String) },
    });
    expect((await stat(join(dataDir, 'signing-keys.json'))).mode & 0o777).toBe(0o600);
  });

  it('keeps its data, credentials and signing key across a restart with the same DATA_DIR', async () => {
    const before = await (await fetch(`${app.url}/jwks.json`)).json();
    const { bootstrap } = app;
    await app.close();
    app = await startLocalApp({ port: 0, dataDir, dynamoEndpoint: process.env.DYNAMODB_ENDPOINT, tablePrefix, env: baseEnv });
    expect(app.firstStart).toBe(false);
    expect(app.bootstrap.adminClient).toEqual(bootstrap.adminClient);
    expect(await (await fetch(`${app.url}/jwks.json`)).json()).toEqual(before);
    const metadata = (await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    expect(metadata.issuer).toBe(app.url);
  });
});
