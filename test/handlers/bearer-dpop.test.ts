/**
 * DPoP-bound tokens at this server's own endpoints (behaviour BEARER-5, RFC 9449 7): the DPoP scheme
 * with a proof of the token's key at userinfo and validate, a bound token refused as Bearer everywhere
 * (userinfo, the admin API), and introspection's `cnf` (behaviour INTRO-6, RFC 9449 6.2).
 */
import { adminScope } from '../../lambdas/core/scope';
import { handler as environmentsList } from '../../lambdas/handlers/admin/environments-list';
import { handler as userinfo } from '../../lambdas/handlers/userinfo';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import type { Client, User } from '../../lambdas/core/model';
import { callAdmin } from '../support/admin-calls';
import { dpopKey, type DpopKey, type ProofOptions } from '../support/dpop';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { createClient, issueAccessToken, issueCode, redirectUri, setUpTokenFamily, type TestClient } from '../support/fixtures';
import { introspectWith, issuer, postToken } from '../support/token-calls';

let user: User;
let app: Client;
let resourceServer: TestClient;
let key: DpopKey;
let stranger: DpopKey;
const algs = 'algs="ES256 ES384 PS256 RS256 EdDSA"';

beforeAll(async () => {
  ({ user, app, resourceServer } = await setUpTokenFamily());
  key = await dpopKey();
  stranger = await dpopKey();
});

/** A user's DPoP-bound token through the code grant, as a client gets it. */
async function boundToken(scopes = ['openid', 'profile']): Promise<string> {
  const code = await issueCode(app, user, { scopes });
  const { status, body } = await postToken(
    { grant_type: 'authorization_code', client_id: app.clientId, code: code.code, code_verifier: code.verifier, redirect_uri: redirectUri },
    { headers: { DPoP: await key.proof('POST', `${issuer()}/api/token`) } },
  );
  if (status !== 200) throw new Error(JSON.stringify(body));
  return String(body.access_token);
}

const call = (handler: typeof userinfo, path: string, headers: Record<string, string>) =>
  handler(apiGatewayEvent({ path, headers }), lambdaContext);
const asDpop = async (token: string, path = '/api/userinfo', options: ProofOptions = {}, signer = key) => ({
  Authorization: `DPoP ${token}`,
  DPoP: await signer.proof('GET', `${issuer()}${path}`, { accessToken: token, ...options }),
});

describe('the DPoP scheme at userinfo and validate (behaviour BEARER-5, RFC 9449 7.1)', () => {
  it('a bound token with a proof of its key (htm, htu, ath) is accepted at both', async () => {
    const token = await boundToken();
    const info = await call(userinfo, '/api/userinfo', await asDpop(token));
    expect([info.statusCode, jsonBody(info).sub]).toEqual([200, user.id]);
    const validated = await call(validateToken, '/api/token/validate', await asDpop(token, '/api/token/validate'));
    expect([validated.statusCode, jsonBody(validated).active]).toEqual([200, true]);
  });

  const refusals: [string, (token: string) => Promise<Record<string, string>>, string, RegExp][] = [
    ['no proof', async (token) => ({ Authorization: `DPoP ${token}` }), 'invalid_dpop_proof', /proof is required/],
    ['a proof of another key', (token) => asDpop(token, '/api/userinfo', {}, stranger), 'invalid_dpop_proof', /not signed by the key/],
    ['ath of another token', (token) => asDpop(token, '/api/userinfo', { claims: { ath: 'x'.repeat(43) } }), 'invalid_dpop_proof', /ath/],
    ['no ath', (token) => asDpop(token, '/api/userinfo', { claims: { ath: undefined } }), 'invalid_dpop_proof', /ath/],
    ['htu of the token endpoint', (token) => asDpop(token, '/api/token'), 'invalid_dpop_proof', /htu must be/],
    [
      'htm POST',
      async (token) => ({
        Authorization: `DPoP ${token}`,
        DPoP: await key.proof('POST', `${issuer()}/api/userinfo`, { accessToken: token }),
      }),
      'invalid_dpop_proof',
      /htm must be GET/,
    ],
    [
      'a stale iat',
      (token) => asDpop(token, '/api/userinfo', { claims: { iat: Math.floor(Date.now() / 1000) - 120 } }),
      'invalid_dpop_proof',
      /iat/,
    ],
  ];

  it.each(refusals)('%s: 401 with the DPoP challenge', async (_name, headers, error, description) => {
    const result = await call(userinfo, '/api/userinfo', await headers(await boundToken()));
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result)).toMatchObject({ error, error_description: expect.stringMatching(description) });
    expect(headerOf(result, 'www-authenticate')).toBe(`DPoP error="${error}", ${algs}`);
  });

  it('a replayed proof is refused (RFC 9449 11.1)', async () => {
    const token = await boundToken();
    const headers = await asDpop(token);
    expect((await call(userinfo, '/api/userinfo', headers)).statusCode).toBe(200);
    const replay = await call(userinfo, '/api/userinfo', headers);
    expect([replay.statusCode, jsonBody(replay).error]).toEqual([401, 'invalid_dpop_proof']);
  });

  it('a bound token without openid: 403 insufficient_scope, challenged with the DPoP scheme', async () => {
    const token = await boundToken(['profile']);
    const result = await call(userinfo, '/api/userinfo', await asDpop(token));
    expect([result.statusCode, jsonBody(result).error]).toEqual([403, 'insufficient_scope']);
    expect(headerOf(result, 'www-authenticate')).toBe(`DPoP error="insufficient_scope", ${algs}, scope="openid"`);
  });

  it('an unbound token sent as DPoP is 401 invalid_token', async () => {
    const { token } = await issueAccessToken({ clientId: app.clientId, sub: user.id, scopes: ['openid'] });
    const result = await call(userinfo, '/api/userinfo', await asDpop(token));
    expect([result.statusCode, jsonBody(result).error]).toEqual([401, 'invalid_token']);
    expect(headerOf(result, 'www-authenticate')).toBe(`DPoP error="invalid_token", ${algs}`);
  });
});

describe('a bound token sent as Bearer (RFC 9449 7.2, behaviour BEARER-5)', () => {
  it('userinfo: 401 invalid_token with the DPoP challenge', async () => {
    const result = await call(userinfo, '/api/userinfo', { Authorization: `Bearer ${await boundToken()}` });
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result)).toMatchObject({ error: 'invalid_token', error_description: expect.stringMatching(/bound to a DPoP key/) });
    expect(headerOf(result, 'www-authenticate')).toBe(`DPoP error="invalid_token", ${algs}`);
  });

  it('the admin API: 401 invalid_token, even for an admin client token', async () => {
    const client = await createClient({ name: 'DPoP admin client', admin: true, scopes: [adminScope] });
    const { token } = await issueAccessToken({ clientId: client.clientId, scopes: [adminScope], jkt: key.jkt });
    const result = await callAdmin(environmentsList, { token });
    expect([result.statusCode, jsonBody(result).error]).toEqual([401, 'invalid_token']);
  });
});

describe('the DPoP scheme at the admin API (behaviour BEARER-5)', () => {
  it("an admin client's bound token with a proof of its key is served; without the proof, 401 invalid_dpop_proof", async () => {
    const client = await createClient({ name: 'DPoP admin client', admin: true, scopes: [adminScope] });
    const { token } = await issueAccessToken({ clientId: client.clientId, scopes: [adminScope], jkt: key.jkt });
    const path = '/api/admin/environments';
    const served = await environmentsList(apiGatewayEvent({ path, headers: await asDpop(token, path) }), lambdaContext);
    expect(served.statusCode).toBe(200);
    const refused = await environmentsList(apiGatewayEvent({ path, headers: { Authorization: `DPoP ${token}` } }), lambdaContext);
    expect([refused.statusCode, jsonBody(refused).error]).toEqual([401, 'invalid_dpop_proof']);
    expect(headerOf(refused, 'www-authenticate')).toBe(`DPoP error="invalid_dpop_proof", ${algs}`);
  });
});

describe('introspection of a bound token (behaviour INTRO-6, RFC 9449 6.2)', () => {
  it('returns cnf.jkt and token_type DPoP; an unbound token stays Bearer without cnf', async () => {
    const bound = await introspectWith(resourceServer, await boundToken());
    expect(bound.body).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    const { token } = await issueAccessToken({ clientId: app.clientId, sub: user.id, scopes: ['openid'] });
    const plain = await introspectWith(resourceServer, token);
    expect(plain.body).toMatchObject({ active: true, token_type: 'Bearer' });
    expect(plain.body).not.toHaveProperty('cnf');
  });
});
