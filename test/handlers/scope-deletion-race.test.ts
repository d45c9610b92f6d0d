/**
 * A deleted scope is neither granted nor issued (behaviour ADMIN-18, ADMIN-12).
 * The race the issue reproduced, run in a fixed order with the fault double's hold: an admin
 * grants a scope to a client, its catalog check passes, the scope is deleted (no holder yet),
 * then the client write lands. Before: the client held the deleted scope and was issued it.
 * Now the client write is conditioned on the catalog it checked, and issuance leaves out any
 * scope the catalog no longer holds, whatever a client record or key still lists.
 */
import type { Config } from '@jest/types';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import { handler as createClientHandler } from '../../lambdas/handlers/admin/clients-create';
import { handler as patchClient } from '../../lambdas/handlers/admin/clients-update';
import { handler as createScope } from '../../lambdas/handlers/admin/scopes-create';
import { handler as deleteScope } from '../../lambdas/handlers/admin/scopes-delete';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { createKeyAs, exchangeKey, useOutbox } from '../support/api-keys';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { jsonBody } from '../support/events';
import { basic, postToken } from '../support/token-calls';
import { adminClientToken, createEnvironment, createUser, uniqueSuffix } from '../support/fixtures';

useOutbox();

/** Everything but Date keeps running for real (the SDK's timers, DynamoDB Local's replies). */
const realTimers: Config.FakeableAPI[] = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];
/** Past the minute a container keeps the catalog it read (lambdas/wiring/storage.ts). */
async function aMinuteLater<T>(run: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({ doNotFake: realTimers, now: Date.now() + 61_000 });
  try {
    return await run();
  } finally {
    jest.useRealTimers();
  }
}

let token: string;
let environmentId: string;
let faults: DynamoFaults;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  token = (await adminClientToken()).token;
  environmentId = await createEnvironment();
  faults = DynamoFaults.install();
});
afterAll(() => faults.uninstall());
afterEach(() => faults.clear());

const newScope = async () => {
  const name = `files:write-${uniqueSuffix()}`;
  expect((await callAdmin(createScope, { token, method: 'POST', body: { name } })).statusCode).toBe(201);
  return name;
};
const removeScope = (name: string) => callAdmin(deleteScope, { token, method: 'DELETE', pathParameters: { name } });
const newClient = (scopes: string[]) =>
  callAdmin(createClientHandler, {
    token,
    method: 'POST',
    body: { type: 'confidential', name: 'Worker', environment_id: environmentId, grant_types: ['client_credentials'], scopes },
  });
const setScopes = (clientId: string, scopes: string[]) =>
  callAdmin(patchClient, { token, method: 'PATCH', pathParameters: { client_id: clientId }, body: { scopes } });
const clientWrite = (attempt: Attempt) => attempt.operation === 'TransactWriteItems' && touches(attempt, 'CLIENT#');
const ccToken = (clientId: string, secret: string, scope?: string) =>
  postToken({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }, { headers: { Authorization: basic(clientId, secret) } });

describe('a scope deleted while an admin grants it is not granted (behaviour ADMIN-18)', () => {
  it('PATCH: the client write lands after the delete: 400 naming the scope, the client keeps its scopes and gets no token for it', async () => {
    const name = await newScope();
    const created = await newClient(['openid']);
    expect(created.statusCode).toBe(201);
    const clientId = String(jsonBody(created).client_id);
    const secret = String(jsonBody(created).client_secret);

    const held = faults.hold(clientWrite);
    const granting = setScopes(clientId, ['openid', name]);
    await held.reached;
    expect((await removeScope(name)).statusCode).toBe(204);
    held.release();
    const granted = await granting;
    expect(granted.statusCode).toBe(400);
    expect(jsonBody(granted).error_description).toBe(`scopes: unknown scope "${name}".`);

    expect((await getClientRepository().get(clientId))?.scopes).toEqual(['openid']);
    expect((await ccToken(clientId, secret, name)).body.error).toBe('invalid_scope');
  });

  it('POST: a client created with the scope, written after the delete: 400, and no client was created', async () => {
    const name = await newScope();
    const held = faults.hold(clientWrite);
    const creating = newClient([name]);
    await held.reached;
    expect((await removeScope(name)).statusCode).toBe(204);
    held.release();
    const created = await creating;
    expect(created.statusCode).toBe(400);
    expect(jsonBody(created).error_description).toBe(`scopes: unknown scope "${name}".`);
    expect((await getClientRepository().holdersOfScope(name, 1)).count).toBe(0);
  });
});

describe('issuance leaves out a scope the catalog no longer holds (behaviour ADMIN-18, CC-2, KEYX-5)', () => {
  /** What a holder check that missed the client leaves: the scope gone from the catalog, still on the client. */
  async function deletedUnderTheClient(name: string): Promise<void> {
    const { db, tables } = getStorage();
    await db.send(new DeleteCommand({ TableName: tables.main, Key: keys.scope(name) }));
  }

  it('client_credentials: the deleted scope is not issued, asked for it is invalid_scope (within the catalog cache minute at most)', async () => {
    const name = await newScope();
    const created = await newClient(['openid', name]);
    const clientId = String(jsonBody(created).client_id);
    const secret = String(jsonBody(created).client_secret);
    expect((await ccToken(clientId, secret)).body.scope).toBe(`openid ${name}`);

    await deletedUnderTheClient(name);
    await aMinuteLater(async () => {
      const all = await ccToken(clientId, secret);
      expect(all.status).toBe(200);
      expect(all.body.scope).toBe('openid');
      expect(decodeJwt(String(all.body.access_token)).scope).toBe('openid');
      const asked = await ccToken(clientId, secret, name);
      expect(asked.status).toBe(400);
      expect(asked.body.error).toBe('invalid_scope');
    });
  });

  it('a scope never loaded by this container is checked against the catalog read now', async () => {
    const name = `files:gone-${uniqueSuffix()}`;
    await ensureScopes(name);
    const created = await newClient(['openid', name]);
    const clientId = String(jsonBody(created).client_id);
    const secret = String(jsonBody(created).client_secret);
    await deletedUnderTheClient(name);
    expect((await ccToken(clientId, secret)).body.scope).toBe('openid');
  });

  it('a scope created a moment ago and granted is issued at once, whatever the container cached', async () => {
    const created = await newClient(['openid']);
    const clientId = String(jsonBody(created).client_id);
    const secret = String(jsonBody(created).client_secret);
    expect((await ccToken(clientId, secret)).body.scope).toBe('openid');
    const name = await newScope();
    expect((await setScopes(clientId, ['openid', name])).statusCode).toBe(200);
    expect((await ccToken(clientId, secret, name)).body.scope).toBe(name);
  });

  it('API key exchange: a key holding the deleted scope no longer mints it', async () => {
    const name = await newScope();
    const created = await newClient(['openid', name]);
    const clientId = String(jsonBody(created).client_id);
    const user = await createUser({ test: false, environments: [environmentId] });
    const key = await createKeyAs(token, clientId, { userId: user.id, scopes: ['openid', name] });
    expect(key.status).toBe(201);
    expect((await exchangeKey({ bearer: String(key.body.api_key) })).body.scope).toBe(`openid ${name}`);

    await deletedUnderTheClient(name);
    await aMinuteLater(async () => {
      const exchanged = await exchangeKey({ bearer: String(key.body.api_key) });
      expect(exchanged.status).toBe(200);
      expect(exchanged.body.scope).toBe('openid');
    });
  });
});
