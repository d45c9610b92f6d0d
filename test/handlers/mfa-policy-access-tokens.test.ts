/**
 * A stricter MFA policy reaches what the ACCESS tokens of a sign-in can do
 * (behaviour MFA-11, MFA-12, CLAIM-11, RFC 9470 3): user access tokens carry the sign-in's `amr`;
 * the admin API and the self-service key routes hold it to the policy in force and answer
 * `401 insufficient_user_authentication`; a self-service key made by a sign-in without the factor
 * the policy now asks for mints nothing (not revoked: a loosened policy lets it work again).
 * Tokens come from the real sign-in and code grant; on tables of this file's own
 * (test/support/own-tables.ts): the policy is one item per deployment.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { decodeJwt } from 'jose';
import type { MfaPolicy } from '../../lambdas/config/settings';
import { passwordAndCodeAmr } from '../../lambdas/core/account/second-factor';
import type { Client } from '../../lambdas/core/model';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { callAdmin } from '../support/admin-calls';
import { adminClientToken, createClient, createUserWithPassword, issueAccessToken, type TestUser, unique } from '../support/fixtures';
import { createKeyAs, exchangeKey, listKeysAs, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { authorizeQuery, browserHeaders, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { authorizeAs, setMfaPolicy } from '../support/mfa-policy';
import { useOwnTables } from '../support/own-tables';
import { postToken } from '../support/token-calls';

useOwnTables();
useOutbox();

let adminToken: string;
let environmentId: string;
let client: Client;

beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
  environmentId = unique('env_');
  client = await createClient({ kind: 'app', environmentId, scopes: ['openid', 'profile', 'admin'] });
});

afterAll(async () => {
  await setMfaPolicy(adminToken, 'admins');
});

const setPolicy = (policy: MfaPolicy) => setMfaPolicy(adminToken, policy);

/** Under `policy`, the user signs in to the client with the password alone, and the code grant's tokens. */
async function passwordOnlyAccessToken(
  policy: MfaPolicy,
  admin: boolean,
): Promise<{ who: TestUser; accessToken: string; refreshToken: string }> {
  await setPolicy(policy);
  const who = await createUserWithPassword({ admin, environments: [environmentId] });
  const { verifier, challenge } = pkcePair();
  const started = await authorizeAs(
    authorizeQuery(client, { code_challenge: challenge, scope: admin ? 'openid admin' : 'openid profile' }),
  );
  const signedIn = await signInStepHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize',
      headers: browserHeaders(),
      body: form({ request_id: hiddenField(started.body, 'request_id'), email: who.user.email!, password: who.password }),
    }),
    lambdaContext,
  );
  expect(signedIn.statusCode).toBe(303);
  const code = locationOf(signedIn).searchParams.get('code')!;
  const tokens = await postToken({
    grant_type: 'authorization_code',
    client_id: client.clientId,
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUris[0]!,
  });
  expect(tokens.status).toBe(200);
  return { who, accessToken: String(tokens.body.access_token), refreshToken: String(tokens.body.refresh_token) };
}

function expectInsufficientUserAuthentication(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(401);
  expect(jsonBody(result)).toEqual({
    error: 'insufficient_user_authentication',
    error_description: expect.stringMatching(/second factor/),
  });
  expect(headerOf(result, 'www-authenticate')).toMatch(/^Bearer error="insufficient_user_authentication", error_description="[^"]+"$/);
}

describe('user access tokens carry the sign-in amr (behaviour CLAIM-11, MFA-11)', () => {
  it('the code grant and every refresh put the sign-in amr into the access token; client_credentials tokens have none', async () => {
    const { accessToken, refreshToken } = await passwordOnlyAccessToken('off', false);
    expect(decodeJwt(accessToken).amr).toEqual(['pwd']);
    const refreshed = await postToken({ grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(String(refreshed.body.access_token)).amr).toEqual(['pwd']);
    expect(decodeJwt(adminToken).amr).toBeUndefined();
  });
});

describe('the admin API holds an admin user token to the MFA policy in force (behaviour MFA-11, RFC 9470 3)', () => {
  it("an admin's password-only access token: 200 under off, 401 insufficient_user_authentication under admins, 200 again under off", async () => {
    const { accessToken } = await passwordOnlyAccessToken('off', true);
    expect((await callAdmin(listUsers, { token: accessToken })).statusCode).toBe(200);
    await setPolicy('admins');
    expectInsufficientUserAuthentication(await callAdmin(listUsers, { token: accessToken }));
    await setPolicy('off');
    expect((await callAdmin(listUsers, { token: accessToken })).statusCode).toBe(200);
  });

  it("an admin's token of a sign-in with the code, and an admin client's token, are used at once under everyone", async () => {
    await setPolicy('everyone');
    const who = await createUserWithPassword({ admin: true, environments: [environmentId] });
    const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['admin'], amr: passwordAndCodeAmr });
    expect((await callAdmin(listUsers, { token })).statusCode).toBe(200);
    expect((await callAdmin(listUsers, { token: adminToken })).statusCode).toBe(200);
  });
});

describe('self-service key routes and self-service keys under a stricter policy (behaviour MFA-11, MFA-12)', () => {
  it('a password-only access token creates no key once the policy asks for a second factor (behaviour MFA-12)', async () => {
    const { who, accessToken, refreshToken } = await passwordOnlyAccessToken('off', false);
    await setPolicy('everyone');
    // The refresh is refused (behaviour REFRESH-6); the access token of the same sign-in is too.
    expect((await postToken({ grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken })).status).toBe(400);
    const created = await createKeyAs(accessToken, client.clientId, { name: 'made without the factor' });
    expectInsufficientUserAuthentication(created.result);
    expectInsufficientUserAuthentication((await listKeysAs(accessToken, client.clientId)).result);
    // Nothing was written.
    const listed = await listKeysAs(adminToken, client.clientId);
    expect((listed.body.items as { user_id: string }[]).filter((k) => k.user_id === who.user.id)).toEqual([]);
  });

  it('a key created before the policy tightened stops exchanging, is not revoked, and works again once the policy is loosened', async () => {
    const { accessToken } = await passwordOnlyAccessToken('off', false);
    const created = await createKeyAs(accessToken, client.clientId, { name: 'made under off' });
    expect(created.status).toBe(201);
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(200);

    await setPolicy('everyone');
    const refused = await exchangeKey({ bearer: String(created.body.api_key) });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(/second factor/) });
    expect(headerOf(refused.result, 'www-authenticate')).toBe('Bearer realm="api-key"');
    // Its owner may still not revoke it with that token (MFA-11); an admin can, and it is still active.
    expectInsufficientUserAuthentication((await revokeKeyAs(accessToken, client.clientId, String(created.body.key_id))).result);
    expect((await storedKey(String(created.body.key_id)))?.revokedAt).toBeUndefined();

    await setPolicy('off');
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(200);
  });

  it("an admin user's password-only key bound to their own account stops exchanging once the policy asks admins for a factor (behaviour MFA-12)", async () => {
    const { who, accessToken } = await passwordOnlyAccessToken('off', true);
    // Through the admin path (an admin caller names the user): still the admin's own sign-in.
    const created = await createKeyAs(accessToken, client.clientId, { userId: who.user.id, name: 'quiet admin key' });
    expect(created.status).toBe(201);
    const stored = await storedKey(String(created.body.key_id));
    expect(stored?.createdBy).toEqual({ kind: 'admin-user', userId: who.user.id });
    expect(stored?.amr).toEqual(['pwd']);
    expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(200);

    await setPolicy('admins');
    const refused = await exchangeKey({ bearer: String(created.body.api_key) });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(/second factor/) });
  });

  it('a key created by a sign-in with a second factor, and a key an admin created, keep exchanging under everyone', async () => {
    await setPolicy('everyone');
    const who = await createUserWithPassword({ admin: false, environments: [environmentId] });
    const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['openid'], amr: passwordAndCodeAmr });
    const own = await createKeyAs(token, client.clientId, { name: 'made with the code' });
    expect(own.status).toBe(201);
    expect((await storedKey(String(own.body.key_id)))?.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect((await exchangeKey({ bearer: String(own.body.api_key) })).status).toBe(200);

    const byAdmin = await createKeyAs(adminToken, client.clientId, { userId: who.user.id, name: 'provisioned' });
    expect(byAdmin.status).toBe(201);
    expect((await exchangeKey({ bearer: String(byAdmin.body.api_key) })).status).toBe(200);
  });
});
