/**
 * DynamoDB misbehaving, one fault aimed at one operation through the fault double
 * (test/support/dynamo-faults.ts): a failed read is not a fact (RFC 9700 4.14.2 revokes on
 * reuse, behaviour ENV-3 on a lost environment grant, never on an error), and a write retried by the
 * SDK after its reply was lost is recognised as the request's own (RFC 7591 3.2.1, behaviour REG-8).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import type { User } from '../../lambdas/core/model';
import { handler as createEnvironmentHandler } from '../../lambdas/handlers/admin/environments-create';
import { handler as createScopeHandler } from '../../lambdas/handlers/admin/scopes-create';
import { handler as registerHandler } from '../../lambdas/handlers/register';
import { getClientRepository, getEnvironments } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin } from '../support/admin-calls';
import { auditOf, createKeyAs, exchangeKey, listKeysAs } from '../support/api-keys';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { activityOf, introspectWith, refresh, resourceA, signedIn } from '../support/token-calls';
import { adminClientToken, createClient, createTokenClient, createUser, setUpTokenFamily, type TestClient } from '../support/fixtures';

let faults: DynamoFaults;
let environmentId: string;
let user: User;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, resourceServer } = await setUpTokenFamily());
  // Dynamic registration offers the discoverable scopes of the catalog.
  await new DynamoScopeRepository(getStorage().db, getStorage().tables.main).createScope({
    name: 'openid',
    description: 'openid',
    discoverable: true,
  });
});
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

const isActive = async (accessToken: unknown) =>
  (await introspectWith(resourceServer, String(accessToken), { resource: resourceA })).body.active === true;

describe('refresh with the user record unreadable (RFC 9700 4.14.2, behaviour ENV-3: revoke on a fact, not an error)', () => {
  it('answers 503 temporarily_unavailable with Retry-After, revokes nothing, and the same refresh token then rotates', async () => {
    const { client } = await createTokenClient({ environmentId });
    const first = await signedIn(client, user, { resource: resourceA });
    faults.fail({ operation: 'GetItem', phase: 'before', where: (a) => touches(a, `USER#${user.id}`) });
    const failed = await refresh(client, String(first.refresh_token));
    faults.clear();

    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    // The activity row names the code the caller was answered with (behaviour LOG-2).
    const failure = (await activityOf(client.clientId)).find((row) => !row.success);
    expect(failure?.reason).toMatch(/^temporarily_unavailable: /);
    expect(Number(headerOf(failed.result, 'retry-after'))).toBeGreaterThan(0);
    expect(await isActive(first.access_token)).toBe(true);
    const retried = await refresh(client, String(first.refresh_token));
    expect(retried.status).toBe(200);
    expect(await isActive(retried.body.access_token)).toBe(true);
  });

  it('the environment grant unreadable: the same, nothing revoked', async () => {
    const { client } = await createTokenClient({ environmentId });
    const first = await signedIn(client, user, { resource: resourceA });
    faults.fail({
      operation: 'GetItem',
      phase: 'before',
      where: (a) => touches(a, `USER#${user.id}`) && JSON.stringify(a.input).includes('ENV#'),
    });
    const failed = await refresh(client, String(first.refresh_token));
    faults.clear();
    expect(failed.status).toBe(503);
    expect(await isActive(first.access_token)).toBe(true);
    expect((await refresh(client, String(first.refresh_token))).status).toBe(200);
  });
});

/** Each test registers from its own address, so the daily cap does not carry over. */
const freshIp = () => `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 6)}`;
const register = (ip: string, clientName = 'Fault test') =>
  registerHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/register',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: clientName, redirect_uris: ['http://127.0.0.1:33418/callback'], scope: 'openid' }),
      sourceIp: ip,
    }),
    lambdaContext,
  );
const dynamicClientsNamed = async (name: string) => {
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await getClientRepository().list('dynamic', 100, cursor);
    found.push(
      ...page.entries
        .map((entry) => entry.item)
        .filter((c) => c.name === name)
        .map((c) => c.clientId),
    );
    cursor = page.next;
  } while (cursor);
  return found;
};
const counterOf = async (ip: string) => {
  const { db, tables } = getStorage();
  const day = new Date().toISOString().slice(0, 10);
  const { Item } = await db.send(
    new GetCommand({ TableName: tables.ephemeral, Key: { pk: `DCRRATE#${day}#${ip}`, sk: 'DCRRATE' }, ConsistentRead: true }),
  );
  return Item?.count as number | undefined;
};

describe('registration whose write was retried after a lost reply (RFC 7591 3.2.1)', () => {
  it('the client write: 201 with the client that was stored, not a 500 with the client left behind', async () => {
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 1, where: (a) => touches(a, 'CLIENT#') });
    const result = await register(freshIp());
    faults.clear();
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(result.statusCode).toBe(201);
    const clientId = String(jsonBody(result).client_id);
    expect(await getClientRepository().get(clientId)).toMatchObject({ clientId, name: 'Fault test', registrationType: 'dynamic' });
  });

  it('the client write unconfirmed on every attempt: 503 with Retry-After, and no client left behind', async () => {
    const name = `Unconfirmed ${randomUUID()}`;
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: (a) => touches(a, 'CLIENT#') });
    const result = await register(freshIp(), name);
    faults.clear();
    expect(result.statusCode).toBe(503);
    expect(headerOf(result, 'retry-after')).toBe('1');
    expect(await dynamicClientsNamed(name)).toEqual([]);
  });

  it('the per-IP counter (behaviour REG-8): one request counts once, so the cap of 10 lets 10 registrations through', async () => {
    const ip = freshIp();
    faults.fail({ operation: 'UpdateItem', phase: 'after', times: 1, where: (a) => touches(a, 'DCRRATE#') });
    expect((await register(ip)).statusCode).toBe(201);
    faults.clear();
    expect(await counterOf(ip)).toBe(1);
    for (let i = 2; i <= 10; i++) expect((await register(ip)).statusCode).toBe(201);
    expect((await register(ip)).statusCode).toBe(429);
    expect(await counterOf(ip)).toBe(10);
  });
});

/** The create transaction: its first item puts the key record (a revocation updates it). */
const isKeyCreate = (a: Attempt) =>
  String((a.input.TransactItems as { Put?: { Item?: { pk?: { S?: string } } } }[] | undefined)?.[0]?.Put?.Item?.pk?.S ?? '').startsWith(
    'APIKEY#',
  );

describe('API key create whose every attempt lost its reply (behaviour KEY-15; docs/admin-api.md)', () => {
  it('answers 503 and leaves no active key: what was written stays pending (listed nowhere, no audit entry), and the secret was never shown', async () => {
    const admin = (await adminClientToken()).token;
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: isKeyCreate });
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    faults.clear();
    expect(faults.injected.length).toBeGreaterThanOrEqual(3);
    expect(created.status).toBe(503);
    expect(created.body.error).toBe('temporarily_unavailable');
    expect(JSON.stringify(created.body)).not.toMatch(/tgk_|secret"/);

    // The first attempt landed as a pending key: never activated, so no reader sees it and TTL removes it.
    expect((await listKeysAs(admin, client.clientId)).body.items).toEqual([]);
    expect(await auditOf(client.clientId)).toEqual([]);
    // A retry is a new request: a new key, which works.
    const again = await createKeyAs(admin, client.clientId, { userId: user.id });
    expect(again.status).toBe(201);
    expect((await exchangeKey({ bearer: String(again.body.api_key) })).status).toBe(200);
  });
});

describe('admin creates whose write was resent after a lost reply', () => {
  it('an environment: 201 with the stored environment, not a 409 against its own first attempt', async () => {
    const { token } = await adminClientToken();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 1, where: (a) => touches(a, 'ENV#') });
    const result = await callAdmin(createEnvironmentHandler, { token, method: 'POST', body: { name: 'Resent' } });
    faults.clear();
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(result.statusCode).toBe(201);
    const id = String(jsonBody(result).id);
    expect(await getEnvironments().get(id)).toMatchObject({ id, name: 'Resent' });
  });

  it('a scope: 201, not a 409 against its own first attempt; a second create of the name is still 409', async () => {
    const { token } = await adminClientToken();
    const name = `resent-${randomUUID().slice(0, 8)}`;
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 1, where: (a) => touches(a, 'SCOPE#') });
    const result = await callAdmin(createScopeHandler, { token, method: 'POST', body: { name, description: 'resent' } });
    faults.clear();
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(result.statusCode).toBe(201);
    const again = await callAdmin(createScopeHandler, { token, method: 'POST', body: { name, description: 'resent' } });
    expect(again.statusCode).toBe(409);
  });
});
