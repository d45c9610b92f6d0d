/**
 * POST /api/token/introspect (RFC 7662, behaviour INTRO-1..INTRO-4): confidential clients only; `resource`
 * makes a token minted for another resource inactive; expired, revoked and foreign
 * tokens are `active: false`.
 */
import { handler as introspect } from '../../lambdas/handlers/introspect';
import { mintAccessToken } from '../../lambdas/core/tokens';
import { attemptOf, createTokenClient, setUpTokenFamily, type TestClient } from '../support/fixtures';
import type { Client, User } from '../../lambdas/core/model';
import { getContainer } from '../../lambdas/wiring/container';
import { getHasher, getTokenStore } from '../../lambdas/wiring/repositories';
import { getSigner } from '../../lambdas/wiring/signing';
import { headerOf, jsonBody, lambdaContext } from '../support/events';
import { basic, formEvent, introspectWith, issuer, postToken, resourceA, resourceB, signedIn } from '../support/token-calls';

let environmentId: string;
let user: User;
let app: Client;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, app, resourceServer } = await setUpTokenFamily({ resourceServerScopes: ['read'] }));
});

describe('behaviour INTRO-2 / RFC 7662 2.2: who may introspect what', () => {
  it("a confidential client without introspect_all learns nothing of another client's token: active false, exactly", async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid', 'read'] });
    const other = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const { status, body } = await introspectWith(other, String(tokens.access_token));
    expect(status).toBe(200);
    expect(body).toEqual({ active: false });
  });

  it('a confidential client introspects the tokens issued to it', async () => {
    const own = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const issued = await postToken(
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(own.client.clientId, own.secret!) } },
    );
    expect((await introspectWith(own, String(issued.body.access_token))).body).toMatchObject({
      active: true,
      client_id: own.client.clientId,
    });
  });

  it('a client flagged introspect_all (a resource server) introspects every token, sub included', async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid'] });
    expect((await introspectWith(resourceServer, String(tokens.access_token))).body).toMatchObject({ active: true, sub: user.id });
  });
});

describe('RFC 7662 2.2: an active token', () => {
  it('answers its claims when the resource matches (behaviour INTRO-3)', async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid', 'read'], resource: resourceA });
    const { status, body, result } = await introspectWith(resourceServer, String(tokens.access_token), { resource: resourceA });
    expect(status).toBe(200);
    expect(headerOf(result, 'cache-control')).toBe('no-store');
    expect(body).toMatchObject({
      active: true,
      scope: 'openid read',
      client_id: app.clientId,
      sub: user.id,
      aud: resourceA,
      iss: issuer(),
      token_type: 'Bearer',
    });
    expect(body.exp).toBeGreaterThan(Date.now() / 1000);
    expect(typeof body.iat).toBe('number');
    expect(typeof body.jti).toBe('string');
  });

  it('without resource, answers any audience and reports it for the caller to check', async () => {
    const tokens = await signedIn(app, user, { resource: resourceA });
    expect((await introspectWith(resourceServer, String(tokens.access_token))).body).toMatchObject({ active: true, aud: resourceA });
  });

  it('a client_credentials token has no sub', async () => {
    const issued = await postToken(
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(resourceServer.client.clientId, resourceServer.secret!) } },
    );
    const { body } = await introspectWith(resourceServer, String(issued.body.access_token));
    expect(body).toMatchObject({ active: true, client_id: resourceServer.client.clientId });
    expect(body).not.toHaveProperty('sub');
  });
});

describe('RFC 7662 2.2: active false', () => {
  it('for a token minted for another resource (behaviour INTRO-3)', async () => {
    const tokens = await signedIn(app, user, { resource: resourceA });
    expect((await introspectWith(resourceServer, String(tokens.access_token), { resource: resourceB })).body).toEqual({ active: false });
  });

  it('for an expired token, even while its record still exists', async () => {
    const { config, random } = getContainer();
    const past = { now: () => Date.now() - 2 * 3600_000 };
    const minted = await mintAccessToken(
      { clientId: app.clientId, sub: user.id, scopes: ['read'], resource: resourceA },
      { issuer: config.baseUrl, signer: await getSigner(), clock: past, random },
    );
    // A record that outlives the token, so only `exp` can make it inactive.
    await getTokenStore().recordIssued({
      token: { jti: minted.jti, clientId: app.clientId, sub: user.id, expiresAtEpoch: Math.floor(Date.now() / 1000) + 3600 },
      activity: { requestType: 'authorization_code', clientId: app.clientId, ip: 'test', success: true, durationMs: 0, ...attemptOf() },
    });
    const { body } = await introspectWith(resourceServer, minted.accessToken, { resource: resourceA });
    expect(body).toEqual({ active: false });
  });

  it('for a token whose family was revoked', async () => {
    const tokens = await signedIn(app, user);
    const refresh = await getTokenStore().getRefreshToken(String(tokens.refresh_token), Math.floor(Date.now() / 1000));
    await getTokenStore().revokeFamily(refresh!.familyId, Math.floor(Date.now() / 1000));
    expect((await introspectWith(resourceServer, String(tokens.access_token))).body).toEqual({ active: false });
  });

  it('for a validly signed token this server has no record of', async () => {
    const { config, random, clock } = getContainer();
    const minted = await mintAccessToken(
      { clientId: app.clientId, scopes: [] },
      { issuer: config.baseUrl, signer: await getSigner(), clock, random },
    );
    expect((await introspectWith(resourceServer, minted.accessToken)).body).toEqual({ active: false });
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['a tampered JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
  ])('for %s', async (_name, value) => {
    expect((await introspectWith(resourceServer, value)).body).toEqual({ active: false });
  });

  it('for a refresh token, whatever the hint (refresh tokens are only for their client)', async () => {
    const tokens = await signedIn(app, user);
    const { body } = await introspectWith(resourceServer, String(tokens.refresh_token), { token_type_hint: 'refresh_token' });
    expect(body).toEqual({ active: false });
  });
});

describe('RFC 7662 2.1: the caller must authenticate as a confidential client', () => {
  const refusals: [string, (token: string) => { fields: Record<string, string>; headers?: Record<string, string> }][] = [
    ['no credentials', (token) => ({ fields: { token } })],
    ['a public client by client_id alone', (token) => ({ fields: { token, client_id: app.clientId } })],
    ['a wrong secret', (token) => ({ fields: { token }, headers: { Authorization: basic(resourceServer.client.clientId, 'wrong') } })],
  ];
  it.each(refusals)('refuses %s with 401 invalid_client', async (_name, request) => {
    const tokens = await signedIn(app, user);
    const { fields, headers } = request(String(tokens.access_token));
    const result = await introspect(formEvent('/api/token/introspect', fields, { headers }), lambdaContext);
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_client');
  });

  it('answers invalid_request without a token', async () => {
    const result = await introspect(
      formEvent('/api/token/introspect', {}, { headers: { Authorization: basic(resourceServer.client.clientId, resourceServer.secret!) } }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
  });
});

describe('behaviour INTRO-5: the cost of a call is bounded', () => {
  it('a repeated secret is verified from the cache the token endpoint uses, without Argon2id; a wrong one never is', async () => {
    const caller = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const tokens = await signedIn(app, user);
    const call = (secret: string) =>
      introspect(
        formEvent(
          '/api/token/introspect',
          { token: String(tokens.access_token) },
          { headers: { Authorization: basic(caller.client.clientId, secret) } },
        ),
        lambdaContext,
      );
    const verify = jest.spyOn(getHasher(), 'verify');
    try {
      for (let i = 0; i < 3; i++) expect((await call(caller.secret!)).statusCode).toBe(200);
      expect(verify).toHaveBeenCalledTimes(1);
      // The token endpoint shares the container's cache: the secret verified here costs it nothing.
      expect(
        (
          await postToken(
            { grant_type: 'client_credentials' },
            { headers: { Authorization: basic(caller.client.clientId, caller.secret!) } },
          )
        ).status,
      ).toBe(200);
      expect(verify).toHaveBeenCalledTimes(1);
      expect((await call('wrong')).statusCode).toBe(401);
      expect((await call('wrong')).statusCode).toBe(401);
      expect(verify).toHaveBeenCalledTimes(3);
    } finally {
      verify.mockRestore();
    }
  });
});
