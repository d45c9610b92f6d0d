/**
 * Behaviour LOG-9: the core use case of an admin change writes its audit entry, in the change's
 * own transaction where DynamoDB allows (environment and scope deletion, an admin's passkey
 * removal), else right after the change (a mailed reset link, docs/storage-schema.md). The doors
 * record nothing themselves, so these run through the admin API's handlers.
 */
import type { AdminAuditEntry } from '../../lambdas/core/model';
import { handler as createScopeHandler } from '../../lambdas/handlers/admin/scopes-create';
import { handler as deleteScopeHandler } from '../../lambdas/handlers/admin/scopes-delete';
import { handler as deleteEnvironmentHandler } from '../../lambdas/handlers/admin/environments-delete';
import { handler as removePasskeyHandler } from '../../lambdas/handlers/admin/user-passkeys-remove';
import { handler as passwordResetHandler } from '../../lambdas/handlers/admin/users-password-reset';
import { getAdminWithoutMail } from '../../lambdas/wiring/admin';
import { getEnvironments } from '../../lambdas/wiring/repositories';
import { getPasskeyStore } from '../../lambdas/wiring/passkeys';
import { callAdmin, auditPartition } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { adminClientToken, createEnvironment, createUser, uniqueSuffix } from '../support/fixtures';

useOutbox();

let faults: DynamoFaults;
let admin: string;
let actor: AdminAuditEntry['actor'];

beforeAll(async () => {
  const { token, client } = await adminClientToken();
  admin = token;
  actor = { kind: 'admin-client', clientId: client.clientId };
});
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

const entriesOf = async (partition: string, about: (entry: AdminAuditEntry) => boolean) =>
  (await auditPartition(partition)).filter(about).map((entry) => ({ type: entry.type, actor: entry.actor }));

const inCatalog = async (name: string) => (await getAdminWithoutMail().scopes.checkScopes([name])).missing.length === 0;

/** Every write carrying an audit entry fails before it is sent. */
const failAuditedWrites = () => {
  for (const operation of ['PutItem', 'TransactWriteItems'])
    faults.fail({ operation, phase: 'before', where: (a) => touches(a, 'AUDIT#') });
};

describe('behaviour LOG-9: deletions carry their entry in their own transaction', () => {
  it('environment.delete: a 503 leaves the environment and no entry; the retry writes both, once', async () => {
    const environmentId = await createEnvironment();
    const remove = () =>
      callAdmin(deleteEnvironmentHandler, { token: admin, method: 'DELETE', pathParameters: { environment_id: environmentId } });
    const about = (entry: AdminAuditEntry) => entry.environmentId === environmentId;
    failAuditedWrites();
    expect((await remove()).statusCode).toBe(503);
    faults.clear();
    expect(await getEnvironments().get(environmentId)).toBeDefined();
    expect(await entriesOf('AUDIT#SITE', about)).toEqual([]);
    expect((await remove()).statusCode).toBe(204);
    expect(await getEnvironments().get(environmentId)).toBeUndefined();
    expect(await entriesOf('AUDIT#SITE', about)).toEqual([{ type: 'environment.delete', actor }]);
  });

  it('scope.delete: a 503 leaves the scope and no entry; the retry writes both, once', async () => {
    const name = `audited-${uniqueSuffix()}`;
    expect((await callAdmin(createScopeHandler, { token: admin, method: 'POST', body: { name } })).statusCode).toBe(201);
    const remove = () => callAdmin(deleteScopeHandler, { token: admin, method: 'DELETE', pathParameters: { name } });
    const about = (entry: AdminAuditEntry) => entry.scope === name && entry.type === 'scope.delete';
    failAuditedWrites();
    expect((await remove()).statusCode).toBe(503);
    faults.clear();
    expect(await inCatalog(name)).toBe(true);
    expect(await entriesOf('AUDIT#SITE', about)).toEqual([]);
    expect((await remove()).statusCode).toBe(204);
    expect(await inCatalog(name)).toBe(false);
    expect(await entriesOf('AUDIT#SITE', about)).toEqual([{ type: 'scope.delete', actor }]);
  });

  it("user.passkey_remove: a 503 leaves the passkey and no entry; the retry writes both; the user's own removal writes none", async () => {
    const user = await createUser({ email: `passkey-${uniqueSuffix()}@example.test` });
    const addPasskey = async (credentialId: string) => {
      const passkey = {
        credentialId,
        userId: user.id,
        publicKey: 'AQAB',
        counter: 0,
        backedUp: false,
        createdAt: new Date().toISOString(),
      };
      expect(await getPasskeyStore().add(passkey, { credentialVersion: 0, passkeyGeneration: 0 })).toBe('added');
    };
    const credentialId = `cred-${uniqueSuffix()}`;
    await addPasskey(credentialId);
    const remove = () =>
      callAdmin(removePasskeyHandler, {
        token: admin,
        method: 'DELETE',
        pathParameters: { user_id: user.id, credential_id: credentialId },
      });
    failAuditedWrites();
    expect((await remove()).statusCode).toBe(503);
    faults.clear();
    expect(await getPasskeyStore().get(credentialId)).toBeDefined();
    expect(await auditPartition(`AUDIT#USER#${user.id}`)).toEqual([]);
    expect((await remove()).statusCode).toBe(204);
    expect(await getPasskeyStore().get(credentialId)).toBeUndefined();
    expect(await entriesOf(`AUDIT#USER#${user.id}`, () => true)).toEqual([{ type: 'user.passkey_remove', actor }]);

    // The store's removal without an entry (the user's own, on the passkeys page) writes none.
    const own = `cred-${uniqueSuffix()}`;
    await addPasskey(own);
    expect(await getPasskeyStore().remove(user.id, own)).toBe(true);
    expect(await entriesOf(`AUDIT#USER#${user.id}`, () => true)).toEqual([{ type: 'user.passkey_remove', actor }]);
  });
});

describe('behaviour LOG-9: a mailed reset link is recorded right after it is sent (docs/storage-schema.md)', () => {
  it('user.password_reset_send: 202, one entry with the admin as actor; a failed entry answers 503', async () => {
    const user = await createUser({ email: `reset-${uniqueSuffix()}@example.test` });
    const send = () => callAdmin(passwordResetHandler, { token: admin, method: 'POST', pathParameters: { user_id: user.id } });
    expect((await send()).statusCode).toBe(202);
    expect(await entriesOf(`AUDIT#USER#${user.id}`, () => true)).toEqual([{ type: 'user.password_reset_send', actor }]);
    failAuditedWrites();
    expect((await send()).statusCode).toBe(503);
    faults.clear();
    expect(await entriesOf(`AUDIT#USER#${user.id}`, () => true)).toHaveLength(1);
  });
});
