/**
 * Nothing half-done, proved with the fault double (test/support/dynamo-faults.ts)
 * on the real SDK request path: an attempt fails before it is sent, or its reply is lost after it
 * landed.
 *
 * - User deletion (behaviour ADMIN-7): the user goes last, so a failure part-way leaves the user
 *   in place and a retried DELETE finishes the job.
 * - Admin changes and their audit entries (behaviour LOG-9): written in one transaction.
 * - API key creation (behaviour KEY-15): a create answered with an error leaves no active key.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler as updateClientHandler } from '../../lambdas/handlers/admin/clients-update';
import { handler as createEnvironmentHandler } from '../../lambdas/handlers/admin/environments-create';
import { handler as grantHandler } from '../../lambdas/handlers/admin/user-environments-grant';
import { handler as deleteUserHandler } from '../../lambdas/handlers/admin/users-delete';
import { handler as updateUserHandler } from '../../lambdas/handlers/admin/users-update';
import { handler as getUserHandler } from '../../lambdas/handlers/admin/users-get';
import { getClientRepository, getEnvironments, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, auditPartition } from '../support/admin-calls';
import { auditOf, createKeyAs, exchangeKey, listKeysAs, useOutbox } from '../support/api-keys';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { adminClientToken, createClient, createUser, issueAccessToken, testFileEnvironment } from '../support/fixtures';

const outbox = useOutbox();

let faults: DynamoFaults;
let admin: string;

beforeAll(async () => {
  admin = (await adminClientToken()).token;
});
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

/** The sort key of the item a single-item write or the first item of a transaction names. */
const sortKeyOf = (attempt: Attempt): string => String((attempt.input.Key as { sk?: { S?: string } } | undefined)?.sk?.S ?? '');

const deleteUserCall = (userId: string) =>
  callAdmin(deleteUserHandler, { token: admin, method: 'DELETE', pathParameters: { user_id: userId } });
const getUserCall = (userId: string) => callAdmin(getUserHandler, { token: admin, pathParameters: { user_id: userId } });

describe('behaviour ADMIN-7: deleting a user removes the user last, so a retried DELETE finishes the job', () => {
  it('an environment grant that cannot be deleted: 503, the user is still there, and the retry answers 204 and leaves no grant', async () => {
    const second = `env_half_${Date.now()}`;
    await getEnvironments().create({ id: second, name: 'second', dcr: false, createdAt: new Date().toISOString() });
    const user = await createUser({ environments: [await testFileEnvironment(), second] });
    faults.fail({ operation: 'DeleteItem', phase: 'before', where: (a) => sortKeyOf(a).startsWith('ENV#') });
    const failed = await deleteUserCall(user.id);
    faults.clear();
    expect(failed.statusCode).toBe(503);
    // Still visible, so the admin's retry finds it (the old order answered 404 with the grants left).
    expect((await getUserCall(user.id)).statusCode).toBe(200);

    const retried = await deleteUserCall(user.id);
    expect(retried.statusCode).toBe(204);
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect(await getEnvironments().grantsOf(user.id)).toEqual([]);
    expect((await auditPartition(`AUDIT#USER#${user.id}`)).map((e) => e.type)).toEqual(['user.delete']);
  });

  it('the last step landed but its reply was lost on every attempt: 503, then the retry answers 404 and nothing is left, audited once', async () => {
    const user = await createUser();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: (a) => JSON.stringify(a.input).includes(`"USER#${user.id}"`) });
    const failed = await deleteUserCall(user.id);
    faults.clear();
    expect(failed.statusCode).toBe(503);
    expect(faults.injected.length).toBeGreaterThanOrEqual(3);

    // The deletion is complete: no user, no email item, no grant; one audit entry (the resends carried one request token).
    expect((await deleteUserCall(user.id)).statusCode).toBe(404);
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect(await getUsers().findByEmail(user.email!)).toBeUndefined();
    expect(await getEnvironments().grantsOf(user.id)).toEqual([]);
    expect((await auditPartition(`AUDIT#USER#${user.id}`)).map((e) => e.type)).toEqual(['user.delete']);
  });
});

/** Every key record of the client as stored, pending ones included (the admin list leaves those out). */
async function keyRecordsOf(clientId: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await getStorage().db.send(
    new QueryCommand({
      TableName: getStorage().tables.main,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `CLIENT#${clientId}#APIKEYS` },
    }),
  );
  return Items;
}

/** A record an exchange would accept: neither pending nor revoked. */
const activeRecords = (records: Record<string, unknown>[]) => records.filter((r) => r.pending === undefined && r.revokedAt === undefined);

/** The transaction that writes a new key record (its first item puts `APIKEY#`). */
const isKeyWrite = (a: Attempt) =>
  String((a.input.TransactItems as { Put?: { Item?: { pk?: { S?: string } } } }[] | undefined)?.[0]?.Put?.Item?.pk?.S ?? '').startsWith(
    'APIKEY#',
  );
/** The transaction that activates a pending key (its first item updates `APIKEY#` and removes `pending`). */
const isActivation = (a: Attempt) =>
  String((a.input.TransactItems as { Update?: { UpdateExpression?: string } }[] | undefined)?.[0]?.Update?.UpdateExpression ?? '').includes(
    'REMOVE pending',
  );

describe('behaviour KEY-15: a key create answered with an error leaves no active key', () => {
  it('the key write landed but every reply was lost, and every later key write fails: 503, no active key, no audit entry', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: isKeyWrite });
    // The old code's compensating revoke (and any other key write) fails too: what the soak met at 35%.
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (a) => touches(a, 'APIKEY#') });
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    faults.clear();
    expect(created.status).toBe(503);
    expect(created.body.error).toBe('temporarily_unavailable');
    expect(JSON.stringify(created.body)).not.toMatch(/tgk_|secret"/);

    const records = await keyRecordsOf(client.clientId);
    expect(records).toHaveLength(1); // the first attempt landed, pending
    expect(activeRecords(records)).toEqual([]);
    expect((await listKeysAs(admin, client.clientId)).body.items).toEqual([]);
    expect(await auditOf(client.clientId)).toEqual([]);
  });

  it('the activation landed but the replies of all its attempts were lost: sent again with its token, 201 with a key that works, audited once', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: isActivation, times: 3 });
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    faults.clear();
    expect(faults.injected).toHaveLength(3);
    expect(created.status).toBe(201);
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(200);
    expect((await auditOf(client.clientId)).map((e) => e.type)).toEqual(['api_key.create']);
  });

  it('behaviour KEY-14: an undeliverable mail while the database refuses key writes: 503, the key never active', async () => {
    const client = await createClient({ name: 'Self-service app', scopes: ['read'], test: false });
    const target = await createUser({ test: false });
    const token = (await issueAccessToken({ clientId: client.clientId, sub: target.id, scopes: ['read'] })).token;
    // The old code revoked the key it had activated before the mail; that revocation fails here.
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (a) => touches(a, 'APIKEY#') && !isKeyWrite(a) });
    rmSync(outbox, { recursive: true, force: true });
    writeFileSync(outbox, 'not a folder'); // the local mailer cannot write its outbox
    let created: Awaited<ReturnType<typeof createKeyAs>>;
    try {
      created = await createKeyAs(token, client.clientId, {});
    } finally {
      rmSync(outbox, { force: true });
      faults.clear();
    }
    expect(created.status).toBe(503);
    expect(JSON.stringify(created.body)).not.toMatch(/tgk_|secret"/);
    expect(activeRecords(await keyRecordsOf(client.clientId))).toEqual([]);
    expect(await auditOf(client.clientId)).toEqual([]);
  });
});

describe('behaviour LOG-9: an admin change and its audit entry are written in one transaction', () => {
  /** Every write that carries an audit entry fails before it is sent: the old separate write, and now the change's own transaction. */
  const failAuditedWrites = () => {
    for (const operation of ['PutItem', 'TransactWriteItems'])
      faults.fail({ operation, phase: 'before', where: (a) => touches(a, 'AUDIT#') });
  };

  it('user.update: a 503 leaves the user as it was, with no entry; the retry writes both', async () => {
    const user = await createUser({ name: 'Before' });
    const rename = () =>
      callAdmin(updateUserHandler, { token: admin, method: 'PATCH', pathParameters: { user_id: user.id }, body: { name: 'After' } });
    failAuditedWrites();
    expect((await rename()).statusCode).toBe(503);
    faults.clear();
    expect((await getUsers().get(user.id))?.name).toBe('Before');
    expect(await auditPartition(`AUDIT#USER#${user.id}`)).toEqual([]);
    expect((await rename()).statusCode).toBe(200);
    expect((await auditPartition(`AUDIT#USER#${user.id}`)).map((e) => [e.type, e.reason])).toEqual([['user.update', 'name']]);
  });

  it('client.update: a 503 leaves the client and every copy as they were, with no entry', async () => {
    const client = await createClient({ name: 'Before', scopes: ['read'] });
    failAuditedWrites();
    const result = await callAdmin(updateClientHandler, {
      token: admin,
      method: 'PATCH',
      pathParameters: { client_id: client.clientId },
      body: { name: 'After' },
    });
    faults.clear();
    expect(result.statusCode).toBe(503);
    expect((await getClientRepository().get(client.clientId))?.name).toBe('Before');
    expect(await auditPartition(`AUDIT#${client.clientId}`)).toEqual([]);
  });

  it('environment.create and user.environment_grant: a 503 writes neither the change nor its entry', async () => {
    const environmentId = `env_audit_${Date.now()}`;
    failAuditedWrites();
    const created = await callAdmin(createEnvironmentHandler, {
      token: admin,
      method: 'POST',
      body: { id: environmentId, name: 'Audited' },
    });
    expect(created.statusCode).toBe(503);
    faults.clear();
    expect(await getEnvironments().get(environmentId)).toBeUndefined();

    const user = await createUser();
    const other = `env_grant_${Date.now()}`;
    await getEnvironments().create({ id: other, name: 'other', dcr: false, createdAt: new Date().toISOString() });
    failAuditedWrites();
    const granted = await callAdmin(grantHandler, {
      token: admin,
      method: 'PUT',
      pathParameters: { user_id: user.id, environment_id: other },
    });
    faults.clear();
    expect(granted.statusCode).toBe(503);
    expect((await getEnvironments().grantsOf(user.id)).map((g) => g.environmentId)).not.toContain(other);
    expect(await auditPartition(`AUDIT#USER#${user.id}`)).toEqual([]);
  });
});
