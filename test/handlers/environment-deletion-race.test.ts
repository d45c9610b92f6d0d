/**
 * Deleting an environment leaves nothing a later environment with the same id inherits
 * (behaviour ADMIN-9, ADMIN-10, ENV-4): a grant made while the environment is
 * deleted is refused, and a grant that outlived its environment (a grant racing the deletion's
 * sweep, or left by an older version) gives no access to the new one, at authorization, the
 * admin API or the key exchange. The races are run in a fixed order with the fault double's hold.
 */
import type { Config } from '@jest/types';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { environmentGenerationCacheMs } from '../../lambdas/adapters/dynamodb/environment-repository';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import { handler as createEnvironment } from '../../lambdas/handlers/admin/environments-create';
import { handler as deleteEnvironment } from '../../lambdas/handlers/admin/environments-delete';
import { handler as grant } from '../../lambdas/handlers/admin/user-environments-grant';
import { handler as listGrants } from '../../lambdas/handlers/admin/user-environments-list';
import { getEnvironments } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { createKeyAs, exchangeKey, useOutbox } from '../support/api-keys';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createUser, uniqueSuffix } from '../support/fixtures';

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

let token: string;
let faults: DynamoFaults;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  token = (await adminClientToken()).token;
  faults = DynamoFaults.install();
});
afterAll(() => faults.uninstall());
afterEach(() => faults.clear());

const newEnvironment = (id: string) => callAdmin(createEnvironment, { token, method: 'POST', body: { id, name: `Race ${id}` } });
const removeEnvironment = (id: string) => callAdmin(deleteEnvironment, { token, method: 'DELETE', pathParameters: { environment_id: id } });
const grantOf = (userId: string, environmentId: string) =>
  callAdmin(grant, { token, method: 'PUT', pathParameters: { user_id: userId, environment_id: environmentId } });
const listedEnvironments = async (userId: string) =>
  (jsonBody(await callAdmin(listGrants, { token, pathParameters: { user_id: userId } })).items as { id: string }[]).map((e) => e.id);

/** The write of the user's grant of the environment, whatever operation carries it. */
const grantWrite = (userId: string, environmentId: string) => (attempt: { operation: string; input: Record<string, unknown> }) =>
  ['PutItem', 'TransactWriteItems'].includes(attempt.operation) &&
  touches(attempt, `USER#${userId}`) &&
  JSON.stringify(attempt.input).includes(`"ENV#${environmentId}"`);

describe('a deleted environment leaves nothing to a later one with the same id (behaviour ADMIN-10, ENV-4)', () => {
  it('a grant whose write lands after the environment was deleted is refused (404), and the environment created again starts with no grants', async () => {
    const environmentId = `race-${uniqueSuffix()}`;
    expect((await newEnvironment(environmentId)).statusCode).toBe(201);
    const user = await createUser({ environments: [] });

    // The grant has read the environment and is about to write; the deletion runs to the end first.
    const held = faults.hold(grantWrite(user.id, environmentId));
    const granting = grantOf(user.id, environmentId);
    await held.reached;
    expect((await removeEnvironment(environmentId)).statusCode).toBe(204);
    held.release();
    const granted = await granting;
    expect(granted.statusCode).toBe(404);
    expect(jsonBody(granted).error).toBe('not_found');

    expect((await newEnvironment(environmentId)).statusCode).toBe(201);
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(false);
    expect(await listedEnvironments(user.id)).not.toContain(environmentId);
  });

  it('a grant that outlived its environment (missed by the sweep) gives no access to the environment created again under that id', async () => {
    const environmentId = `race-${uniqueSuffix()}`;
    expect((await newEnvironment(environmentId)).statusCode).toBe(201);
    const user = await createUser({ environments: [] });
    expect((await grantOf(user.id, environmentId)).statusCode).toBe(200);
    // What a sweep that missed the grant leaves: the environment gone, its grant still stored.
    const { db, tables } = getStorage();
    await db.send(new DeleteCommand({ TableName: tables.main, Key: keys.environment(environmentId) }));

    expect((await newEnvironment(environmentId)).statusCode).toBe(201);
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(false);
    expect(await listedEnvironments(user.id)).not.toContain(environmentId);
    // Granting it again is a new grant of the new environment, which then counts.
    expect((await grantOf(user.id, environmentId)).statusCode).toBe(200);
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(true);
    expect(await listedEnvironments(user.id)).toContain(environmentId);
  });

  it('a client of the environment created again does not exchange a key for a user granted only the old one (behaviour ENV-2, KEYX-3)', async () => {
    const environmentId = `race-${uniqueSuffix()}`;
    expect((await newEnvironment(environmentId)).statusCode).toBe(201);
    const client = await createClient({ environmentId, scopes: ['read'] });
    const user = await createUser({ environments: [] });
    expect((await grantOf(user.id, environmentId)).statusCode).toBe(200);
    const created = await createKeyAs(token, client.clientId, { userId: user.id });
    expect(created.status).toBe(201);
    const key = String(created.body.api_key);
    expect((await exchangeKey({ bearer: key })).status).toBe(200);

    // The environment replaced under the client: deleted (its grant missed) and created again.
    const { db, tables } = getStorage();
    await db.send(new DeleteCommand({ TableName: tables.main, Key: keys.environment(environmentId) }));
    expect((await newEnvironment(environmentId)).statusCode).toBe(201);

    // Past the seconds a container trusts the generation it read (environmentGenerationCacheMs).
    jest.useFakeTimers({ doNotFake: realTimers, now: Date.now() + environmentGenerationCacheMs + 1000 });
    try {
      const refused = await exchangeKey({ bearer: key });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
    } finally {
      jest.useRealTimers();
    }
  });
});
