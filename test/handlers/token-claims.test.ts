/**
 * The claim set of the access token each grant mints (behaviour CLAIM-1, RFC 9068 2.2): every token
 * carries `client_id`, `iat` and `jti`; a user's token carries the user as `sub`; a token a client
 * gets for itself (client_credentials) carries no `sub` at all, which is where this server departs
 * from RFC 9068 2.2 (README, "Access tokens").
 */
import { decodeProtectedHeader } from 'jose';
import type { User } from '../../lambdas/core/model';
import { createKeyAs, exchangeKey } from '../support/api-keys';
import { adminClientToken, createClient, createTokenClient, createUser, issueCode, setUpTokenFamily } from '../support/fixtures';
import { basic, issuer, postToken, redeem, refresh, resourceA, verifyAsResourceServer } from '../support/token-calls';

let environmentId: string;
let user: User;

beforeAll(async () => {
  ({ environmentId, user } = await setUpTokenFamily());
});

/** The token as a resource server verifies it, with its claim names sorted. */
async function verified(accessToken: unknown) {
  const jwt = String(accessToken);
  expect(decodeProtectedHeader(jwt).typ).toBe('at+jwt');
  const claims = await verifyAsResourceServer(jwt, resourceA);
  expect(claims.jti).toMatch(/^at_/);
  expect(claims.iat).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  expect(claims.exp! - claims.iat!).toBe(3600);
  return { claims, names: Object.keys(claims).sort() };
}

const userTokenClaims = ['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'];

describe('behaviour CLAIM-1: the claim set of each grant (RFC 9068 2.2)', () => {
  it('authorization_code: client_id, iat, jti and the user as sub', async () => {
    const { client } = await createTokenClient({ environmentId });
    const answer = await redeem(client, await issueCode(client, user, { scopes: ['read'], resource: resourceA }));
    expect(answer.status).toBe(200);
    const { claims, names } = await verified(answer.body.access_token);
    expect(names).toEqual(userTokenClaims);
    expect(claims).toMatchObject({ iss: issuer(), aud: resourceA, sub: user.id, client_id: client.clientId, scope: 'read' });
  });

  it('refresh_token: the same claims, the same sub, a new jti', async () => {
    const { client } = await createTokenClient({ environmentId });
    const first = await redeem(client, await issueCode(client, user, { scopes: ['read'], resource: resourceA }));
    const rotated = await refresh(client, String(first.body.refresh_token));
    expect(rotated.status).toBe(200);
    const { claims, names } = await verified(rotated.body.access_token);
    expect(names).toEqual(userTokenClaims);
    expect(claims).toMatchObject({ sub: user.id, client_id: client.clientId });
    expect(claims.jti).not.toBe((await verified(first.body.access_token)).claims.jti);
  });

  it('client_credentials: client_id, iat, jti and no sub, not even an empty one (behaviour CC-2)', async () => {
    const service = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const answer = await postToken(
      { grant_type: 'client_credentials', resource: resourceA },
      { headers: { Authorization: basic(service.client.clientId, service.secret!) } },
    );
    expect(answer.status).toBe(200);
    const { claims, names } = await verified(answer.body.access_token);
    expect(names).toEqual(['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope']);
    expect(claims.client_id).toBe(service.client.clientId);
  });

  it("the API-key exchange: client_id, iat, jti, the key's user as sub and the key's id (behaviour KEYX-6)", async () => {
    const client = await createClient({ scopes: ['read'] });
    const owner = await createUser();
    const created = await createKeyAs((await adminClientToken()).token, client.clientId, { userId: owner.id });
    const answer = await exchangeKey({ bearer: String(created.body.api_key), fields: { resource: resourceA } });
    expect(answer.status).toBe(200);
    const { claims, names } = await verified(answer.body.access_token);
    expect(names).toEqual(['api_key_id', ...userTokenClaims].sort());
    expect(claims).toMatchObject({ sub: owner.id, client_id: client.clientId, api_key_id: created.body.key_id });
  });
});
