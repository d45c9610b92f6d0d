/**
 * GET /api/userinfo (OIDC Core 5.3) and GET /api/token/validate (behaviour BEARER-4): bearer
 * tokens of this server (aud = issuer); claims by scope; failures are 401 with the
 * RFC 6750 3 challenge (403 insufficient_scope for a token without `openid`).
 */
import { handler as userinfo } from '../../lambdas/handlers/userinfo';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import type { Client, User } from '../../lambdas/core/model';
import { getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { basic, claimsOf, issuer, postToken, resourceA, signedIn } from '../support/token-calls';
import { createTokenClient, createTokenUser, setUpTokenFamily } from '../support/fixtures';

let environmentId: string;
let user: User;
let app: Client;

beforeAll(async () => {
  ({ environmentId, user, app } = await setUpTokenFamily());
});

const get = (handler: typeof userinfo, path: string, token?: string) =>
  handler(apiGatewayEvent({ path, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } }), lambdaContext);
const getUserinfo = (token?: string) => get(userinfo, '/api/userinfo', token);
const getValidate = (token?: string) => get(validateToken, '/api/token/validate', token);

describe('GET /api/userinfo: claims by scope (OIDC Core 5.3.2, 5.4)', () => {
  it('openid alone: sub only', async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid'] });
    const result = await getUserinfo(String(tokens.access_token));
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ sub: user.id });
    expect(headerOf(result, 'cache-control')).toBe('no-store');
  });

  it('openid profile email: name, email, and email_verified false (nothing verifies addresses yet)', async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid', 'profile', 'email'] });
    expect(jsonBody(await getUserinfo(String(tokens.access_token)))).toEqual({
      sub: user.id,
      name: user.name,
      email: user.email,
      email_verified: false,
    });
  });

  it('403 insufficient_scope for a user token without openid (RFC 6750 3.1)', async () => {
    const tokens = await signedIn(app, user, { scopes: ['profile'] });
    const result = await getUserinfo(String(tokens.access_token));
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).error).toBe('insufficient_scope');
    expect(headerOf(result, 'www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"');
  });

  it('401 invalid_token for a client_credentials token: it identifies no user', async () => {
    const service = await createTokenClient({
      environmentId,
      type: 'confidential',
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
    });
    const issued = await postToken(
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(service.client.clientId, service.secret!) } },
    );
    const result = await getUserinfo(String(issued.body.access_token));
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_token');
  });

  it('401 invalid_token once the user is deleted', async () => {
    const leaving = await createTokenUser([environmentId]);
    const tokens = await signedIn(app, leaving, { scopes: ['openid'] });
    await getUsers().delete(leaving);
    expect((await getUserinfo(String(tokens.access_token))).statusCode).toBe(401);
  });
});

describe('GET /api/token/validate: the claims a service needs', () => {
  it('answers active, sub, client_id, scope, aud and exp', async () => {
    const tokens = await signedIn(app, user, { scopes: ['openid', 'read'] });
    const result = await getValidate(String(tokens.access_token));
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      active: true,
      sub: user.id,
      client_id: app.clientId,
      scope: 'openid read',
      aud: issuer(),
      exp: claimsOf(tokens.access_token).exp,
    });
  });
});

describe('RFC 6750 3.1: both endpoints refuse a bad bearer token with a challenge (401; 400 for a malformed header)', () => {
  const refusals: [string, () => Promise<string | undefined>, string][] = [
    // Both schemes are offered (behaviour BEARER-5, RFC 9449 7.1).
    ['no Authorization header', async () => undefined, 'Bearer, DPoP algs="ES256 ES384 PS256 RS256 EdDSA"'],
    [
      'a malformed token',
      async () => 'not a token',
      'Bearer error="invalid_request", DPoP error="invalid_request", algs="ES256 ES384 PS256 RS256 EdDSA"',
    ],
    [
      'a token of another audience (a resource-bound token)',
      async () => String((await signedIn(app, user, { resource: resourceA })).access_token),
      'Bearer error="invalid_token"',
    ],
    [
      'a token whose family was revoked',
      async () => {
        const tokens = await signedIn(app, user);
        const now = Math.floor(Date.now() / 1000);
        const found = await getTokenStore().getRefreshToken(String(tokens.refresh_token), now);
        await getTokenStore().revokeFamily(found!.familyId, now);
        return String(tokens.access_token);
      },
      'Bearer error="invalid_token"',
    ],
  ];

  it.each(refusals)('%s', async (_name, token, challenge) => {
    const value = await token();
    for (const call of [getUserinfo, getValidate]) {
      const result = await call(value);
      expect(result.statusCode).toBe(challenge.includes('invalid_request') ? 400 : 401);
      expect(headerOf(result, 'www-authenticate')).toBe(challenge);
    }
  });
});
