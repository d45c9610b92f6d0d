/**
 * POST /api/token, grant_type=authorization_code (RFC 6749 4.1.3, OAuth 2.1 4.1.3,
 * RFC 7636 4.6, RFC 8707 2.2, OIDC Core 3.1.3), against DynamoDB Local.
 */
import { headerOf } from '../support/events';
import {
  activityOf,
  basic,
  claimsOf,
  introspectWith,
  issuer,
  postToken,
  redeem,
  refresh,
  resourceA,
  resourceB,
  storedFor,
  verifyAsResourceServer,
} from '../support/token-calls';
import {
  createEnvironment,
  createTokenClient,
  createTokenUser,
  issueCode,
  redirectUri,
  type TestClient,
  setUpTokenFamily,
} from '../support/fixtures';
import { getEnvironments } from '../../lambdas/wiring/repositories';
import type { Client, User } from '../../lambdas/core/model';

let environmentId: string;
let user: User;
let app: Client;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, app, resourceServer } = await setUpTokenFamily());
});

describe('a valid code (RFC 6749 4.1.3, RFC 7636 4.6)', () => {
  it('yields a Bearer access token, a refresh token and an ID token, never cached (RFC 6749 5.1)', async () => {
    const code = await issueCode(app, user, { scopes: ['openid', 'profile', 'email', 'read'], nonce: 'n-0S6_WzA2Mj' });
    const { status, body, result } = await redeem(app, code);
    expect(status).toBe(200);
    expect(headerOf(result, 'cache-control')).toBe('no-store');
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid profile email read' });
    expect(typeof body.refresh_token).toBe('string');

    // RFC 9068: iss, aud (the issuer when no resource was requested), sub, client_id, scope, iat, exp, jti.
    const access = await verifyAsResourceServer(String(body.access_token), issuer());
    expect(access).toMatchObject({
      iss: issuer(),
      aud: issuer(),
      sub: user.id,
      client_id: app.clientId,
      scope: 'openid profile email read',
    });
    expect(access.jti).toEqual(expect.any(String));

    // OIDC Core 2 and 5.4: aud is the client, nonce echoed, claims by scope.
    const id = claimsOf(body.id_token);
    expect(id).toMatchObject({
      iss: issuer(),
      sub: user.id,
      aud: app.clientId,
      nonce: 'n-0S6_WzA2Mj',
      name: user.name,
      email: user.email,
    });
    expect(id.email_verified).toBe(false);
  });

  it('releases in the ID token only the claims of the granted scopes (OIDC Core 5.4)', async () => {
    const { body } = await redeem(app, await issueCode(app, user, { scopes: ['openid'] }));
    const id = claimsOf(body.id_token);
    expect(id.sub).toBe(user.id);
    expect(id).not.toHaveProperty('name');
    expect(id).not.toHaveProperty('email');
  });

  it('adds no ID token without openid (OIDC Core 3.1.2.1)', async () => {
    const { status, body } = await redeem(app, await issueCode(app, user, { scopes: ['read'] }));
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('id_token');
  });

  it('issues no refresh token to a client without the refresh_token grant', async () => {
    const noRefresh = await createTokenClient({ environmentId, grantTypes: ['authorization_code'] });
    const { status, body } = await redeem(noRefresh.client, await issueCode(noRefresh.client, user));
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('refresh_token');
    expect((await storedFor(noRefresh.client.clientId)).refreshTokens).toBe(0);
  });

  it('accepts a confidential client with client_secret_basic, and still checks PKCE (RFC 6749 2.3.1)', async () => {
    const web = await createTokenClient({ environmentId, type: 'confidential' });
    const code = await issueCode(web.client, user);
    const fields = { grant_type: 'authorization_code', code: code.code, code_verifier: code.verifier, redirect_uri: redirectUri };
    const ok = await postToken(fields, { headers: { Authorization: basic(web.client.clientId, web.secret!) } });
    expect(ok.status).toBe(200);

    const other = await issueCode(web.client, user);
    const noSecret = await postToken({ ...fields, code: other.code, code_verifier: other.verifier, client_id: web.client.clientId });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
  });

  it('writes one activity row for the success, with client, environment, user and source IP (behaviour LOG-1, LOG-2)', async () => {
    const client = await createTokenClient({ environmentId });
    const code = await issueCode(client.client, user);
    const { status } = await postToken(
      {
        grant_type: 'authorization_code',
        client_id: client.client.clientId,
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: redirectUri,
      },
      { sourceIp: '198.51.100.23' },
    );
    expect(status).toBe(200);
    const rows = await activityOf(client.client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestType: 'authorization_code',
      clientId: client.client.clientId,
      environmentId,
      userId: user.id,
      ip: '198.51.100.23',
      success: true,
    });
    expect(rows[0]!.durationMs).toEqual(expect.any(Number));
  });
});

describe('RFC 8707 2.2: the resource binding', () => {
  it('sets aud to the resource bound at authorization, and accepts the same resource repeated', async () => {
    const code = await issueCode(app, user, { resource: resourceA });
    const { status, body } = await redeem(app, code, { resource: resourceA });
    expect(status).toBe(200);
    expect((await verifyAsResourceServer(String(body.access_token), resourceA)).aud).toBe(resourceA);
  });

  it('keeps the bound aud when the token request names no resource', async () => {
    const { body } = await redeem(app, await issueCode(app, user, { resource: resourceA }));
    expect(claimsOf(body.access_token).aud).toBe(resourceA);
  });

  it.each([
    ['another resource than the bound one', resourceA, resourceB],
    ['a resource when none was bound', undefined, resourceB],
    ['a resource that is not an absolute URI', resourceA, 'not a uri'],
    ['a resource with a fragment', resourceA, `${resourceA}#x`],
  ])('answers invalid_target for %s, and issues nothing', async (_name, bound, requested) => {
    const client = await createTokenClient({ environmentId });
    const { status, body } = await redeem(client.client, await issueCode(client.client, user, { resource: bound }), {
      resource: requested,
    });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_target');
    expect(await storedFor(client.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  });
});

describe('RFC 6749 5.2 invalid_grant: the code does not hold', () => {
  // Every row has all three entries: jest reads a missing one as a `done` callback.
  const cases: [string, (code: { code: string; verifier: string }) => Record<string, string>, { expiresInSeconds?: number }][] = [
    ['an unknown code', () => ({ code: 'bm90LWEtcmVhbC1jb2RlLWF0LWFsbC1ub3QtYXQtYWxs' }), {}],
    ['a code past its expiry (treated as absent even before TTL removes it)', () => ({}), { expiresInSeconds: -1 }],
    ['a wrong code_verifier (RFC 7636 4.6)', () => ({ code_verifier: 'x'.repeat(43) }), {}],
    ['a malformed code_verifier (RFC 7636 4.1)', () => ({ code_verifier: 'short' }), {}],
    ['a different redirect_uri (OAuth 2.1 4.1.3)', () => ({ redirect_uri: 'https://app.example.test/other' }), {}],
  ];
  it.each(cases)('%s', async (_name, change, options) => {
    const client = await createTokenClient({ environmentId });
    const code = await issueCode(client.client, user, options);
    const { status, body } = await redeem(client.client, code, change(code));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    expect(await storedFor(client.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    const rows = await activityOf(client.client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestType: 'authorization_code', success: false });
    expect(rows[0]!.reason).toMatch(/^invalid_grant: /);
  });

  it('a code issued to another client', async () => {
    const thief = await createTokenClient({ environmentId });
    const code = await issueCode(app, user);
    const { status, body } = await redeem(thief.client, code);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    // The rightful client can still redeem it.
    expect((await redeem(app, code)).status).toBe(200);
  });

  it('a user whose environment access was revoked after authorization (behaviour ENV-2)', async () => {
    const leaving = await createTokenUser([environmentId]);
    const code = await issueCode(app, leaving);
    await getEnvironments().revoke(leaving.id, environmentId);
    const { status, body } = await redeem(app, code);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
  });
});

describe('RFC 6749 4.1.2 and 10.5: a code used twice', () => {
  it('fails the second time and revokes what the first use issued', async () => {
    const code = await issueCode(app, user, { resource: resourceA });
    const first = await redeem(app, code);
    expect(first.status).toBe(200);
    expect((await introspectWith(resourceServer, String(first.body.access_token), { resource: resourceA })).body.active).toBe(true);

    const second = await redeem(app, code);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');

    // The first access token is now inactive and the refresh token refused.
    expect((await introspectWith(resourceServer, String(first.body.access_token), { resource: resourceA })).body).toEqual({
      active: false,
    });
    const refreshed = await refresh(app, String(first.body.refresh_token));
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });
});

describe('behaviour ENV-1, ENV-2: dynamic clients answer to DCR_ENVIRONMENT_ID at authorization, redemption and refresh alike', () => {
  it('redeems for a user holding the DCR environment, and refuses one holding only the client record’s environment', async () => {
    const dcrEnvironment = process.env.DCR_ENVIRONMENT_ID!;
    const recordEnvironment = await createEnvironment();
    const { client: dynamic } = await createTokenClient({ environmentId: recordEnvironment, registrationType: 'dynamic' });
    const insider = await createTokenUser([dcrEnvironment]);
    const outsider = await createTokenUser([recordEnvironment]);
    expect((await redeem(dynamic, await issueCode(dynamic, insider))).status).toBe(200);
    const refused = await redeem(dynamic, await issueCode(dynamic, outsider));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });
});

describe('RFC 6749 4.1.3: redirect_uri at the token endpoint', () => {
  it('may be omitted by a client with a single registered URI, and the code still redeems', async () => {
    const code = await issueCode(app, user);
    const { status } = await postToken({
      grant_type: 'authorization_code',
      client_id: app.clientId,
      code: code.code,
      code_verifier: code.verifier,
    });
    expect(status).toBe(200);
  });

  it('must be sent by a client with several registered URIs: omitted, the code does not hold', async () => {
    const { client: twoUris } = await createTokenClient({ environmentId, redirectUris: [redirectUri, 'https://app.example.test/second'] });
    const code = await issueCode(twoUris, user);
    const answer = await postToken({
      grant_type: 'authorization_code',
      client_id: twoUris.clientId,
      code: code.code,
      code_verifier: code.verifier,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
  });
});
