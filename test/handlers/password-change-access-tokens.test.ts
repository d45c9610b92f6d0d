/**
 * A password change ends a sign-in's access tokens at this server's bearer endpoints at once
 * (behaviour BEARER-1, BEARER-2, BEARER-4, INTRO-4, RESET-12, KEY-17): a token whose
 * refresh family holds another password version than the user's is refused like a revoked one,
 * even where the change's sweep of the user's families (RESET-7) missed the family. The miss is
 * the one DynamoDB's index lag makes: the family is taken out of the index (its gsi1 attributes
 * removed, what a query of `gsi1` does not see yet), so the sweep leaves it unrevoked, as each
 * test checks. A token of a sign-in after the change works; key-minted tokens are KEY-17's.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { passwordAndCodeAmr } from '../../lambdas/core/account/second-factor';
import type { Client } from '../../lambdas/core/model';
import { adminScope } from '../../lambdas/core/scope';
import { handler as emailVerificationRequest } from '../../lambdas/handlers/email-verification-request';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { handler as userinfo } from '../../lambdas/handlers/userinfo';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import { getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, setPasswordAsAdmin } from '../support/admin-calls';
import { createKeyAs, exchangeKey, listKeysAs, useOutbox } from '../support/api-keys';
import {
  adminClientToken,
  createClient,
  createTokenClient,
  createUserWithPassword,
  issueAccessToken,
  issueCode,
  redirectUri,
  type TestClient,
  testFileEnvironment,
  type TestUser,
  unique,
} from '../support/fixtures';
import { mailsTo } from '../support/account';
import { browserHeaders } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { completeReset, mailedLink, removeAll } from '../support/recovery';
import { claimsOf, introspectWith, redeem, refresh } from '../support/token-calls';

const outbox = useOutbox();
let adminToken: string;
let app: Client;
let resourceServer: TestClient;

beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
  const environmentId = await testFileEnvironment();
  // An application an administrator created (static): its users' tokens may manage their own keys (KEYM-2).
  app = await createClient({
    name: 'Reports app',
    type: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: [redirectUri],
    scopes: ['openid', 'read', adminScope],
  });
  resourceServer = await createTokenClient({
    environmentId,
    type: 'confidential',
    grantTypes: ['client_credentials'],
    introspectAll: true,
  });
});

interface SignIn {
  readonly access: string;
  readonly refresh: string;
  readonly familyId: string;
}

/**
 * A sign-in through the token endpoint: a code as the authorization step saves it (the session's
 * password version, a mailed code as second factor), redeemed for real, which starts the family.
 */
async function signIn(who: TestUser, scopes: readonly string[] = ['openid', 'read']): Promise<SignIn> {
  const stored = await getUsers().current(who.user.id);
  const nowEpoch = Math.floor(Date.now() / 1000);
  const code = await issueCode(app, who.user, { scopes, amr: passwordAndCodeAmr, credentialVersion: stored!.credentialVersion ?? 0 });
  const redeemed = await redeem(app, code);
  expect(redeemed.status).toBe(200);
  const access = String(redeemed.body.access_token);
  const record = await getTokenStore().getTokenRecord(String(claimsOf(access).jti), nowEpoch);
  return { access, refresh: String(redeemed.body.refresh_token), familyId: record!.familyId! };
}

/** What a query of the index does not see yet: the family without its gsi1 attributes. */
async function outOfIndex(familyId: string): Promise<void> {
  const { db, tables } = getStorage();
  await db.send(
    new UpdateCommand({
      TableName: tables.ephemeral,
      Key: { pk: `FAMILY#${familyId}`, sk: 'FAMILY' },
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
    }),
  );
}

/** The owner's recovery: the mailed link, a new password, and the completion's "Remove all" (RESET-9, RESET-13). */
async function recoverWithRemoveAll(who: TestUser): Promise<void> {
  const { recovery } = await completeReset(await mailedLink(outbox, who));
  const removed = await removeAll(recovery, browserHeaders({ Accept: 'application/json' }));
  expect(removed.statusCode).toBe(200);
}

async function changePasswordByAdmin(who: TestUser): Promise<void> {
  const patched = await setPasswordAsAdmin(adminToken, who.user.id, `new password ${unique('')}`);
  expect(patched.statusCode).toBe(200);
}

/** A sign-in of the intruder's, missed by the sweep of the owner's password change. */
async function signInMissedBy(change: (who: TestUser) => Promise<void>, who: TestUser, scopes?: readonly string[]) {
  const before = await signIn(who, scopes);
  await outOfIndex(before.familyId);
  await change(who);
  // The sweep queried the index and missed the family, as it can in DynamoDB: it is not revoked.
  expect(await getTokenStore().isFamilyRevoked(before.familyId)).toBe(false);
  return before;
}

const bearerGet = (handler: typeof userinfo, path: string, token: string) =>
  handler(apiGatewayEvent({ path, headers: { Authorization: `Bearer ${token}` } }), lambdaContext);

function expectInvalidToken(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(401);
  expect(jsonBody(result)).toEqual({
    error: 'invalid_token',
    error_description: 'The access token is missing, invalid, expired or revoked.',
  });
  expect(headerOf(result, 'www-authenticate')).toBe('Bearer error="invalid_token"');
}

describe('self-service API keys: a token from before the password change creates none (behaviour BEARER-1, RESET-12, KEY-17)', () => {
  it('after a reset and its "Remove all": 401 invalid_token and no key, where a sign-in after it creates one', async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(recoverWithRemoveAll, who);

    // The intruder's key would belong to the new key generation and exchange indefinitely.
    const refused = await createKeyAs(before.access, app.clientId, { name: 'backup sync' });
    expectInvalidToken(refused.result);
    expectInvalidToken((await listKeysAs(before.access, app.clientId)).result);

    const after = await signIn(who);
    const listed = await listKeysAs(after.access, app.clientId);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
    const created = await createKeyAs(after.access, app.clientId, { name: 'laptop' });
    expect(created.status).toBe(201);
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(200);
  });

  it('a token whose user was deleted since creates no key: 401 invalid_token (behaviour KEYM-2, BEARER-2)', async () => {
    const who = await createUserWithPassword();
    // A token without a family: the self-service path reads the user itself.
    const { token } = await issueAccessToken({ clientId: app.clientId, sub: who.user.id, scopes: ['read'], amr: passwordAndCodeAmr });
    await getUsers().delete(who.user);
    expectInvalidToken((await createKeyAs(token, app.clientId, { name: 'orphan' })).result);
  });

  it('after an admin sets a new password (ADMIN-6): 401 invalid_token', async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(changePasswordByAdmin, who);
    expectInvalidToken((await createKeyAs(before.access, app.clientId, { name: 'backup sync' })).result);
  });
});

describe('userinfo and validate refuse a token from before the password change (behaviour BEARER-2, BEARER-4, RESET-12)', () => {
  it('after a reset: userinfo and validate answer 401 invalid_token; a sign-in after it is served', async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(async (user) => {
      const { page } = await completeReset(await mailedLink(outbox, user));
      expect(page.statusCode).toBe(200);
    }, who);

    expectInvalidToken(await bearerGet(userinfo, '/api/userinfo', before.access));
    expectInvalidToken(await bearerGet(validateToken, '/api/token/validate', before.access));

    const after = await signIn(who);
    const served = await bearerGet(userinfo, '/api/userinfo', after.access);
    expect(served.statusCode).toBe(200);
    expect(jsonBody(served)).toEqual({ sub: who.user.id });
    expect(jsonBody(await bearerGet(validateToken, '/api/token/validate', after.access))).toMatchObject({
      active: true,
      sub: who.user.id,
    });
  });

  it("a refresh of the old family is refused too, so the holder gets no token of the new password's (RESET-12)", async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(changePasswordByAdmin, who);
    const refreshed = await refresh(app, before.refresh);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });
});

describe('the admin API refuses an admin user token from before the password change (behaviour BEARER-1, ADMIN-1, RESET-12)', () => {
  it('after a reset: 401 invalid_token, where a sign-in after it lists the users', async () => {
    const who = await createUserWithPassword({ admin: true });
    const scopes = ['openid', adminScope];
    const before = await signInMissedBy(recoverWithRemoveAll, who, scopes);

    expectInvalidToken(await callAdmin(listUsers, { token: before.access }));
    const after = await signIn(who, scopes);
    expect((await callAdmin(listUsers, { token: after.access })).statusCode).toBe(200);
  });
});

describe('the account endpoints refuse a bearer token from before the password change (behaviour VERIFY-1, BEARER-1)', () => {
  it('POST /api/users/email-verification/request: 401 invalid_token, nothing mailed', async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(changePasswordByAdmin, who);
    const mailsBefore = mailsTo(outbox, who.user.email!).length;
    const result = await emailVerificationRequest(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/users/email-verification/request',
        headers: { Authorization: `Bearer ${before.access}` },
      }),
      lambdaContext,
    );
    expectInvalidToken(result);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(mailsBefore);
  });
});

describe('introspection answers active:false for a token from before the password change (behaviour INTRO-4, RFC 7662 2.2)', () => {
  it('the old token is inactive, a token of a sign-in after the change active', async () => {
    const who = await createUserWithPassword();
    const before = await signInMissedBy(changePasswordByAdmin, who);
    expect((await introspectWith(resourceServer, before.access)).body).toEqual({ active: false });
    const after = await signIn(who);
    expect((await introspectWith(resourceServer, after.access)).body).toMatchObject({ active: true, sub: who.user.id });
  });
});

describe('what the password version does not govern (behaviour KEY-17, BEARER-1)', () => {
  it("a token minted by an administrator's key for the user stays valid: key-minted tokens have no family", async () => {
    const who = await createUserWithPassword();
    const key = await createKeyAs(adminToken, app.clientId, { userId: who.user.id, name: 'CI deploys' });
    expect(key.status).toBe(201);
    const minted = await exchangeKey({ bearer: String(key.body.api_key) });
    expect(minted.status).toBe(200);
    await changePasswordByAdmin(who);
    const checked = await bearerGet(validateToken, '/api/token/validate', String(minted.body.access_token));
    expect(checked.statusCode).toBe(200);
  });

  it("a sign-in's token of a user deleted since is refused at once, even when the deletion's sweep missed its family (ADMIN-7)", async () => {
    const who = await createUserWithPassword();
    const before = await signIn(who);
    await outOfIndex(before.familyId);
    await getUsers().delete(who.user);
    expectInvalidToken(await bearerGet(validateToken, '/api/token/validate', before.access));
  });
});
