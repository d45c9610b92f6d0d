/**
 * Deleting a client takes effect at once, everywhere (behaviour ADMIN-16). Two separately started
 * server processes share one DynamoDB Local: server A issues and serves the client's tokens
 * (its per-process caches warm), server B deletes the client; right after B's 204, A issues
 * no token of any kind to that client, and its live access tokens are inactive at
 * introspection, userinfo and validate. Its API keys are revoked, each with an audit entry.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { physicalTableNames } from '../../lambdas/local/tables';
import { call, clientCredentialsToken, signIn } from '../support/local-http';
import { createUserOverHttp } from '../support/fixtures';

const root = join(__dirname, '..', '..');
const tablePrefix = `e2e-del-${randomUUID().slice(0, 8)}-`;
const redirectUri = 'http://127.0.0.1:9/callback';

let dataDir: string;
let serverA: { child: ChildProcess; url: string };
let serverB: LocalApp;

/** Server A: `npm start`'s code in a child process of its own. */
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['test/support/local-server-process.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      TABLE_PREFIX: tablePrefix,
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^\{"url":"([^"]+)"\}$/m.exec(output);
      if (line) resolve(line[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server A exited (${code}): ${output}`)));
  });
  return { child, url };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-e2e-del-'));
  serverA = await startChild(); // seeds the shared tables and signing key
  serverB = await startLocalApp({
    port: 0,
    dataDir,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL, MAIL_OUTBOX_DIR: undefined },
  });
}, 60_000);

afterAll(async () => {
  serverA?.child.kill('SIGTERM');
  await new Promise((resolve) => (serverA?.child.exitCode !== null ? resolve(undefined) : serverA.child.once('exit', resolve)));
  await serverB?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('behaviour ADMIN-16: after DELETE on server B returns, server A issues nothing to the client and its live tokens are inactive', async () => {
  const a = serverA.url;
  const { adminClient, environments } = serverB.bootstrap;
  const adminA = await clientCredentialsToken(a, adminClient.clientId, adminClient.clientSecret, 'admin');
  const asAdmin = (method: string, path: string, body?: unknown) =>
    call(a, method, path, { token: adminA, ...(body !== undefined ? { body } : {}) });

  // A public client for the code and refresh grants, a confidential one for client_credentials
  // and an API key, and an introspecting resource server that outlives both.
  const publicClient = await asAdmin('POST', '/api/admin/clients', {
    type: 'public',
    name: 'Doomed app',
    environment_id: environments.defaultId,
    redirect_uris: [redirectUri],
    scopes: ['openid', 'email'],
  });
  const service = await asAdmin('POST', '/api/admin/clients', {
    type: 'confidential',
    name: 'Doomed service',
    environment_id: environments.defaultId,
    scopes: ['email'],
  });
  const introspector = await asAdmin('POST', '/api/admin/clients', {
    type: 'confidential',
    name: 'Resource server',
    environment_id: environments.defaultId,
    scopes: [],
    introspect_all: true,
  });
  const publicId = String(publicClient.json.client_id);
  const serviceId = String(service.json.client_id);
  const serviceSecret = String(service.json.client_secret);
  const {
    id: userId,
    email,
    password,
  } = await createUserOverHttp(a, adminA, { name: 'Doomed user', environments: [environments.defaultId] });
  const key = await asAdmin('POST', `/api/admin/clients/${serviceId}/api-keys`, { userId });
  expect(key.status).toBe(201);

  // Everything works on A, twice, so every per-process cache there is warm.
  const signedIn = await signIn(a, { clientId: publicId, redirectUri, email, password, scope: 'openid email' });
  const refreshOnce = await call(a, 'POST', '/api/token', {
    form: { grant_type: 'refresh_token', client_id: publicId, refresh_token: signedIn.refresh_token! },
  });
  expect(refreshOnce.status).toBe(200);
  const userToken = String(refreshOnce.json.access_token);
  const refreshToken = String(refreshOnce.json.refresh_token);
  const serviceToken = await clientCredentialsToken(a, serviceId, serviceSecret, 'email');
  await clientCredentialsToken(a, serviceId, serviceSecret, 'email');
  const keyToken = await call(a, 'POST', '/api/token/api-key', { token: String(key.json.api_key) });
  expect(keyToken.status).toBe(200);
  const authorizePage = `/api/authorize?${new URLSearchParams({ response_type: 'code', client_id: publicId, redirect_uri: redirectUri, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', scope: 'openid', state: 's' })}`;
  expect((await call(a, 'GET', authorizePage, { headers: { accept: 'text/html' } })).text).toContain('name="request_id"');
  const introspect = (token: string) =>
    call(a, 'POST', '/api/token/introspect', {
      form: { token },
      headers: {
        authorization: `Basic ${Buffer.from(`${String(introspector.json.client_id)}:${String(introspector.json.client_secret)}`).toString('base64')}`,
      },
    });
  expect((await introspect(userToken)).json.active).toBe(true);
  expect((await call(a, 'GET', '/api/userinfo', { token: userToken })).status).toBe(200);

  // Server B deletes both clients.
  const adminB = await clientCredentialsToken(serverB.url, adminClient.clientId, adminClient.clientSecret, 'admin');
  for (const id of [publicId, serviceId])
    expect((await call(serverB.url, 'DELETE', `/api/admin/clients/${id}`, { token: adminB })).status).toBe(204);

  // At once, on A: no token of any kind.
  const refreshed = await call(a, 'POST', '/api/token', {
    form: { grant_type: 'refresh_token', client_id: publicId, refresh_token: refreshToken },
  });
  expect(refreshed.status).toBe(401);
  expect(refreshed.json.error).toBe('invalid_client');
  await expect(clientCredentialsToken(a, serviceId, serviceSecret, 'email')).rejects.toThrow();
  expect((await call(a, 'POST', '/api/token/api-key', { token: String(key.json.api_key) })).status).toBe(401);
  const page = await call(a, 'GET', authorizePage, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(400);
  expect(page.text).not.toContain('name="request_id"');

  // Live access tokens of every kind are inactive.
  for (const token of [userToken, serviceToken, String(keyToken.json.access_token)]) {
    expect((await introspect(token)).json).toEqual({ active: false });
    expect((await call(a, 'GET', '/api/token/validate', { token })).status).toBe(401);
  }
  expect((await call(a, 'GET', '/api/userinfo', { token: userToken })).status).toBe(401);

  // The key is revoked (soft: the record and its audit trail stay), with the reason.
  const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT! });
  const tables = physicalTableNames(tablePrefix);
  const stored = (
    await db.send(
      new GetCommand({ TableName: tables.main, Key: { pk: `APIKEY#${String(key.json.key_id)}`, sk: 'APIKEY' }, ConsistentRead: true }),
    )
  ).Item;
  expect(stored?.revokedAt).toEqual(expect.any(String));
  const audit =
    (
      await db.send(
        new QueryCommand({
          TableName: tables.activity,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `AUDIT#${serviceId}` },
        }),
      )
    ).Items ?? [];
  // The client's whole trail (behaviour LOG-9): created, its key created, the key revoked by the deletion, deleted.
  expect(audit.map((entry) => [entry.type, entry.reason])).toEqual([
    ['client.create', undefined],
    ['api_key.create', undefined],
    ['api_key.revoke', 'client deleted'],
    ['client.delete', undefined],
  ]);
  db.destroy();
}, 60_000);
