/**
 * Recovery ends the self-service API keys an intruder created while holding the account
 * (behaviour RESET-13, KEY-17, RESET-10, RESET-11): the reset completion lists them (never a
 * secret) and its one "Remove all" revokes them with the passkeys, each with its `api_key.revoke`
 * audit entry (LOG-4); left alone they keep exchanging, and the "password changed" mail names them.
 * Admin-created keys are not the owner's to end there and keep working. The step takes effect with
 * its first write: a revocation that fails after it leaves no self-service key exchanging.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Client } from '../../lambdas/core/model';
import { recoveryRevocationReason } from '../../lambdas/core/account/password-reset';
import { handler as sendLinkHandler } from '../../lambdas/handlers/admin/users-password-reset';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin } from '../support/admin-calls';
import { auditOf, createKeyAs, exchangeKey, listKeysAs, storedKey, useOutbox } from '../support/api-keys';
import { adminClientToken, createClient, createUserWithPassword, issueAccessToken, type TestUser } from '../support/fixtures';
import { latestResetToken, mailsTo } from '../support/account';
import { browserHeaders } from '../support/authorization';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { jsonBody } from '../support/events';
import { completeReset, mailedLink, removeAll } from '../support/recovery';

const outbox = useOutbox();
let adminToken: string;
let client: Client;
let faults: DynamoFaults;
beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
  client = await createClient({ name: 'Reports app', scopes: ['read'] });
  faults = DynamoFaults.install();
});
afterAll(() => faults.uninstall());
afterEach(() => faults.clear());

const json = () => browserHeaders({ Accept: 'application/json' });

/**
 * The account as an intruder leaves it: a self-service key created with a token the client got
 * for the user (behaviour KEYM-2), and a key an administrator created for the user besides.
 */
async function takenOver(): Promise<{ who: TestUser; intruderKey: string; intruderKeyId: string; adminKey: string }> {
  const who = await createUserWithPassword();
  const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['read'] });
  const intruder = await createKeyAs(token, client.clientId, { name: 'backup sync' });
  expect(intruder.status).toBe(201);
  const admin = await createKeyAs(adminToken, client.clientId, { userId: who.user.id, name: 'CI deploys' });
  expect(admin.status).toBe(201);
  const intruderKey = String(intruder.body.api_key);
  expect((await exchangeKey({ bearer: intruderKey })).status).toBe(200);
  return { who, intruderKey, intruderKeyId: String(intruder.body.key_id), adminKey: String(admin.body.api_key) };
}

const mailWithSubject = (who: TestUser, subject: string) => mailsTo(outbox, who.user.email!).filter((m) => m.subject === subject);

describe('the reset completion lists the self-service API keys and one "Remove all" revokes them (behaviour RESET-13)', () => {
  it('lists the intruder key by name and id (never a secret), not the admin-created one, with one button for passkeys and keys', async () => {
    const { who, intruderKey, intruderKeyId, adminKey } = await takenOver();
    const { page } = await completeReset(await mailedLink(outbox, who));
    expect(page.body).toContain('<h2>API keys that still get tokens</h2>');
    expect(page.body).toContain(`<strong>backup sync</strong> (key id ${intruderKeyId}, client ${client.clientId})`);
    expect(page.body).toMatch(/created \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, last used \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(page.body).not.toContain('CI deploys');
    expect(page.body).toContain('<button type="submit" id="remove-all-passkeys">Revoke all API keys</button>');
    for (const secret of [intruderKey, adminKey]) expect(page.body).not.toContain(secret.split('_').slice(2).join('_'));
  });

  it('left alone, the intruder key keeps exchanging after the reset, and the "password changed" mail names it and how to revoke it (behaviour RESET-13, RESET-10)', async () => {
    const { who, intruderKey, intruderKeyId } = await takenOver();
    await completeReset(await mailedLink(outbox, who));
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(200);
    const [mail] = mailWithSubject(who, 'Your password was changed');
    expect(mail!.text).toContain('These API keys, created in an application with your account, still get access tokens that act as you');
    expect(mail!.text).toContain(`- "backup sync" (key id ${intruderKeyId}, client ${client.clientId}), created `);
    expect(mail!.text).toContain('To revoke one, sign in to the application named and revoke the key there');
    expect(mail!.text).toContain('The page shown after the reset offers revoking them all at once');
    expect(mail!.text).not.toContain('CI deploys');
  });

  it('chosen: the intruder key is refused at its next exchange (fails before: it kept minting), revoked with its audit entry, the admin key still works, and it works once', async () => {
    const { who, intruderKey, intruderKeyId, adminKey } = await takenOver();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    const removed = await removeAll(recovery, json());
    expect(removed.statusCode).toBe(200);
    expect(jsonBody(removed)).toEqual({ removed_passkeys: [], revoked_api_keys: [intruderKeyId] });

    const refused = await exchangeKey({ bearer: intruderKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
    expect((await exchangeKey({ bearer: adminKey })).status).toBe(200);
    expect((await storedKey(intruderKeyId))?.revokedAt).toBeDefined();
    const entries = (await auditOf(client.clientId)).filter((e) => e.keyId === intruderKeyId && e.type === 'api_key.revoke');
    expect(entries).toEqual([
      expect.objectContaining({ userId: who.user.id, actor: { kind: 'user', userId: who.user.id }, reason: recoveryRevocationReason }),
    ]);
    const [mail] = mailWithSubject(who, 'The passkeys and API keys of your account were removed');
    expect(mail!.text).toContain(`- "backup sync" (key id ${intruderKeyId}, client ${client.clientId})`);

    // Idempotent: the proof is spent, nothing is revoked or audited twice.
    expect((await removeAll(recovery, json())).statusCode).toBe(400);
    expect((await auditOf(client.clientId)).filter((e) => e.keyId === intruderKeyId && e.type === 'api_key.revoke')).toHaveLength(1);
  });

  it('the page after "Remove all" names the revoked keys', async () => {
    const { who, intruderKeyId } = await takenOver();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    const removed = await removeAll(recovery);
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain('These API keys were revoked and no longer get tokens');
    expect(removed.body).toContain(`(key id ${intruderKeyId}, client ${client.clientId})`);
  });

  it('an admin-sent link revokes nothing by itself; its completion offers the same step (behaviour RESET-11, RESET-13)', async () => {
    const { who, intruderKey } = await takenOver();
    const sent = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: `/api/admin/users/${who.user.id}/password-reset`,
      pathParameters: { user_id: who.user.id },
    });
    expect(sent.statusCode).toBe(202);
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(200);
    const { page, recovery } = await completeReset(latestResetToken(outbox, who.user.email!));
    expect(page.body).toContain('<strong>backup sync</strong>');
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(200);
    expect((await removeAll(recovery, json())).statusCode).toBe(200);
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(401);
  });
});

describe('the step takes effect with its first write, so a failure after it leaves no self-service key exchanging (behaviour RESET-13, KEY-17)', () => {
  it('revocations that fail: 503, and the key whose revocation was not stored is refused anyway (fails before: it kept minting)', async () => {
    const { who, intruderKey, intruderKeyId, adminKey } = await takenOver();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (attempt) => touches(attempt, 'APIKEY#') });
    expect((await removeAll(recovery, json())).statusCode).toBe(503);
    faults.clear();

    expect((await storedKey(intruderKeyId))?.revokedAt).toBeUndefined();
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(401);
    expect((await exchangeKey({ bearer: adminKey })).status).toBe(200);
  });

  it('a first write that fails leaves the proof working and the key untouched: the same step then completes', async () => {
    const { who, intruderKey, intruderKeyId } = await takenOver();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (attempt) => touches(attempt, 'PWRECOVER#') });
    expect((await removeAll(recovery, json())).statusCode).toBe(503);
    faults.clear();
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(200);

    const again = await removeAll(recovery, json());
    expect(again.statusCode).toBe(200);
    expect(jsonBody(again)).toEqual({ removed_passkeys: [], revoked_api_keys: [intruderKeyId] });
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(401);
  });

  it('a revocation whose reply was lost and which the DynamoDB client sent again: 200 listing the key, revoked once with one entry (behaviour RESET-13, KEY-8, ERR-5)', async () => {
    const { who, intruderKey, intruderKeyId } = await takenOver();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    const isRevocation = (attempt: Attempt) =>
      touches(attempt, `APIKEY#${intruderKeyId}`) && JSON.stringify(attempt.input).includes('SET revokedAt');
    const injectedBefore = faults.injected.length; // the double is installed once for this file
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 1, where: isRevocation });
    const removed = await removeAll(recovery, json());
    faults.clear();
    expect(faults.injected.slice(injectedBefore)).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    // The resend is answered as the first send (same request token), not refused as already revoked.
    expect(removed.statusCode).toBe(200);
    expect(jsonBody(removed)).toEqual({ removed_passkeys: [], revoked_api_keys: [intruderKeyId] });
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(401);
    expect((await auditOf(client.clientId)).filter((e) => e.keyId === intruderKeyId && e.type === 'api_key.revoke')).toHaveLength(1);
    const [mail] = mailWithSubject(who, 'The passkeys and API keys of your account were removed');
    expect(mail!.text).toContain(`(key id ${intruderKeyId}, client ${client.clientId})`);
  });

  it('a self-service key of an earlier key generation (a create in flight across the step) never exchanges (behaviour KEY-17)', async () => {
    const { who, intruderKey, adminKey } = await takenOver();
    const { db, tables } = getStorage();
    await db.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: { pk: `USER#${who.user.id}`, sk: 'USER' },
        UpdateExpression: 'SET apiKeyGeneration = :g',
        ExpressionAttributeValues: { ':g': 1 },
      }),
    );
    expect((await exchangeKey({ bearer: intruderKey })).status).toBe(401);
    expect((await exchangeKey({ bearer: adminKey })).status).toBe(200);
    // A key the user creates now belongs to the new generation and works.
    const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['read'] });
    const fresh = await createKeyAs(token, client.clientId, { name: 'after' });
    expect(fresh.status).toBe(201);
    expect((await exchangeKey({ bearer: String(fresh.body.api_key) })).status).toBe(200);
    expect((await listKeysAs(token, client.clientId)).status).toBe(200);
  });
});

describe('a key create racing the removal (behaviour KEY-17, RESET-13)', () => {
  it('a self-service create whose token was checked before "Remove all" makes a key of the old generation, which never exchanges (behaviour KEY-17)', async () => {
    const who = await createUserWithPassword();
    const { recovery } = await completeReset(await mailedLink(outbox, who));
    // A token the intruder still holds after the reset (say, from a passkey sign-in before the removal).
    const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['read'] });
    // The create's own read of the user waits (its token check read the user first); meanwhile
    // the owner removes everything.
    let userReads = 0;
    const held = faults.hold((attempt) => attempt.operation === 'GetItem' && touches(attempt, `USER#${who.user.id}`) && ++userReads === 2);
    const creating = createKeyAs(token, client.clientId, { name: 'slipped in' });
    await held.reached;
    expect((await removeAll(recovery, json())).statusCode).toBe(200);
    held.release();
    const created = await creating;
    expect(created.status).toBe(201);
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(401);
  });
});
