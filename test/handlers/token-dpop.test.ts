/**
 * DPoP at the token endpoint (RFC 9449): proofs checked as behaviour TOKEN-7 says, DPoP-bound access
 * tokens (`cnf.jkt`, `token_type: DPoP`, behaviour TOKEN-8, CLAIM-12) for the three grants, public
 * clients' refresh tokens bound to the key (behaviour REFRESH-8), and `dpop_jkt` codes (behaviour CODE-5).
 */
import type { User } from '../../lambdas/core/model';
import { handler as token } from '../../lambdas/handlers/token';
import { dpopKey, type DpopKey } from '../support/dpop';
import { jsonBody, lambdaContext } from '../support/events';
import { createTokenClient, issueCode, redirectUri, setUpTokenFamily, type TestClient } from '../support/fixtures';
import { activityOf, basic, claimsOf, formEvent, issuer, postToken, refresh, storedFor } from '../support/token-calls';

let environmentId: string;
let user: User;
let key: DpopKey;
let stranger: DpopKey;
const tokenUrl = () => `${issuer()}/api/token`;
const withProof = (proof: string, headers: Record<string, string> = {}) => ({ headers: { DPoP: proof, ...headers } });

beforeAll(async () => {
  ({ environmentId, user } = await setUpTokenFamily());
  key = await dpopKey();
  stranger = await dpopKey();
});

const serviceClient = () =>
  createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
const clientCredentials = (service: TestClient, proof?: string) =>
  postToken(
    { grant_type: 'client_credentials' },
    { headers: { Authorization: basic(service.client.clientId, service.secret!), ...(proof ? { DPoP: proof } : {}) } },
  );

describe('DPoP-bound access tokens (behaviour TOKEN-8, CLAIM-12, RFC 9449 5)', () => {
  it('client_credentials with a valid proof: token_type DPoP and cnf.jkt the key thumbprint (RFC 7638)', async () => {
    const service = await serviceClient();
    const { status, body } = await clientCredentials(service, await key.proof('POST', tokenUrl()));
    expect(status).toBe(200);
    expect(body.token_type).toBe('DPoP');
    expect(claimsOf(body.access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it('without a proof the token is a Bearer token without cnf', async () => {
    const service = await serviceClient();
    const { body } = await clientCredentials(service);
    expect(body.token_type).toBe('Bearer');
    expect(claimsOf(body.access_token)).not.toHaveProperty('cnf');
  });

  it('htu is compared without its query (RFC 9449 4.3 item 9), and each alg of the list is accepted', async () => {
    const service = await serviceClient();
    for (const alg of ['RS256', 'PS256', 'EdDSA'] as const) {
      const other = await dpopKey(alg);
      const { status, body } = await clientCredentials(service, await other.proof('POST', `${tokenUrl()}?x=1#f`));
      expect([status, body.token_type, claimsOf(body.access_token).cnf]).toEqual([200, 'DPoP', { jkt: other.jkt }]);
    }
  });

  it('authorization_code of a public client: a DPoP token, and its refresh token bound to the key (behaviour REFRESH-8)', async () => {
    const { client } = await createTokenClient({ environmentId });
    const bound = await issueCode(client, user);
    const redeemed = await postToken(
      {
        grant_type: 'authorization_code',
        client_id: client.clientId,
        code: bound.code,
        code_verifier: bound.verifier,
        redirect_uri: redirectUri,
      },
      withProof(await key.proof('POST', tokenUrl())),
    );
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.token_type).toBe('DPoP');
    expect(claimsOf(redeemed.body.access_token).cnf).toEqual({ jkt: key.jkt });
    const before = await storedFor(client.clientId);

    // Without a proof, or with another key's: refused, nothing rotated, nothing revoked.
    const bare = await refresh(client, String(redeemed.body.refresh_token));
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_grant']);
    const wrongKey = await postToken(
      { grant_type: 'refresh_token', client_id: client.clientId, refresh_token: String(redeemed.body.refresh_token) },
      withProof(await stranger.proof('POST', tokenUrl())),
    );
    expect([wrongKey.status, wrongKey.body.error]).toEqual([400, 'invalid_grant']);
    expect(await storedFor(client.clientId)).toEqual(before);
    const reasons = (await activityOf(client.clientId)).filter((r) => !r.success).map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining([expect.stringMatching(/no DPoP proof/), expect.stringMatching(/key differs/)]));

    // With the key: rotates, and the successor is bound too.
    const rotated = await postToken(
      { grant_type: 'refresh_token', client_id: client.clientId, refresh_token: String(redeemed.body.refresh_token) },
      withProof(await key.proof('POST', tokenUrl())),
    );
    expect([rotated.status, rotated.body.token_type]).toEqual([200, 'DPoP']);
    expect(claimsOf(rotated.body.access_token).cnf).toEqual({ jkt: key.jkt });
    const successorBare = await refresh(client, String(rotated.body.refresh_token));
    expect(successorBare.body.error).toBe('invalid_grant');
  });

  it('an unbound refresh token of a public client becomes bound at its first DPoP refresh (behaviour REFRESH-8)', async () => {
    const { client } = await createTokenClient({ environmentId });
    const code = await issueCode(client, user);
    const plain = await postToken({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: redirectUri,
    });
    expect(plain.body.token_type).toBe('Bearer');
    const viaDpop = await postToken(
      { grant_type: 'refresh_token', client_id: client.clientId, refresh_token: String(plain.body.refresh_token) },
      withProof(await key.proof('POST', tokenUrl())),
    );
    expect([viaDpop.status, viaDpop.body.token_type]).toEqual([200, 'DPoP']);
    const bare = await refresh(client, String(viaDpop.body.refresh_token));
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('a confidential client refresh token is not bound (RFC 9449 5); a DPoP refresh still gets a DPoP token', async () => {
    const confidential = await createTokenClient({ environmentId, type: 'confidential' });
    const auth = { Authorization: basic(confidential.client.clientId, confidential.secret!) };
    const code = await issueCode(confidential.client, user);
    const redeemed = await postToken(
      { grant_type: 'authorization_code', code: code.code, code_verifier: code.verifier, redirect_uri: redirectUri },
      withProof(await key.proof('POST', tokenUrl()), auth),
    );
    expect([redeemed.status, redeemed.body.token_type]).toEqual([200, 'DPoP']);
    const plain = await postToken({ grant_type: 'refresh_token', refresh_token: String(redeemed.body.refresh_token) }, { headers: auth });
    expect([plain.status, plain.body.token_type]).toEqual([200, 'Bearer']);
    const other = await dpopKey();
    const viaDpop = await postToken(
      { grant_type: 'refresh_token', refresh_token: String(plain.body.refresh_token) },
      withProof(await other.proof('POST', tokenUrl()), auth),
    );
    expect([viaDpop.status, viaDpop.body.token_type, claimsOf(viaDpop.body.access_token).cnf]).toEqual([200, 'DPoP', { jkt: other.jkt }]);
  });
});

describe('a client registered with dpop_bound_access_tokens (behaviour TOKEN-9, RFC 9449 5.2)', () => {
  it('is refused without a proof (400 invalid_request, nothing issued) and served with one', async () => {
    const service = await createTokenClient({
      environmentId,
      type: 'confidential',
      grantTypes: ['client_credentials'],
      scopes: ['read'],
      dpopBoundAccessTokens: true,
    });
    const bare = await clientCredentials(service);
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'This client must send a DPoP proof with every token request.',
    });
    expect(await storedFor(service.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    const proven = await clientCredentials(service, await key.proof('POST', tokenUrl()));
    expect([proven.status, proven.body.token_type]).toEqual([200, 'DPoP']);
  });

  it('holds for a public client refreshing, too', async () => {
    const { client } = await createTokenClient({ environmentId, dpopBoundAccessTokens: true });
    const code = await issueCode(client, user);
    const bare = await postToken({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: redirectUri,
    });
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_request']);
    expect(await storedFor(client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  });
});

describe('dpop_jkt codes (behaviour CODE-5, RFC 9449 10)', () => {
  const redeemWith = (client: TestClient['client'], code: { code: string; verifier: string }, proof?: string) =>
    postToken(
      {
        grant_type: 'authorization_code',
        client_id: client.clientId,
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: redirectUri,
      },
      proof ? withProof(proof) : {},
    );

  it('refuses the redemption without a proof or with another key (invalid_grant, nothing issued), accepts the bound key', async () => {
    const { client } = await createTokenClient({ environmentId });
    const code = await issueCode(client, user, { dpopJkt: key.jkt });
    const bare = await redeemWith(client, code);
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_grant']);
    const wrong = await redeemWith(client, code, await (await dpopKey()).proof('POST', tokenUrl()));
    expect([wrong.status, wrong.body.error]).toEqual([400, 'invalid_grant']);
    expect(await storedFor(client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    const right = await redeemWith(client, code, await key.proof('POST', tokenUrl()));
    expect([right.status, right.body.token_type]).toEqual([200, 'DPoP']);
  });
});

describe('bad proofs: 400 invalid_dpop_proof, nothing issued (behaviour TOKEN-7, RFC 9449 4.3, 5)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['not a JWT', async () => 'not-a-jwt', /not a signed JWT/],
    ['typ other than dpop+jwt', () => key.proof('POST', tokenUrl(), { header: { typ: 'JWT' } }), /typ/],
    ['alg none', async () => unsignedProof(), /signed with one of/],
    [
      'alg HS256 (a MAC)',
      () => key.proof('POST', tokenUrl(), { signWith: { key: new Uint8Array(32).fill(7), alg: 'HS256' } }),
      /signed with one of/,
    ],
    ['a private key in jwk', () => key.proof('POST', tokenUrl(), { header: { jwk: key.privateJwk } }), /private key material/],
    ['no jwk', () => key.proof('POST', tokenUrl(), { header: { jwk: undefined } }), /public key as jwk/],
    ['a signature of another key', async () => swapKey(await key.proof('POST', tokenUrl())), /signature is not valid/],
    ['htm GET', () => key.proof('GET', tokenUrl()), /htm must be POST/],
    ['htu of another endpoint', () => key.proof('POST', `${issuer()}/api/userinfo`), /htu must be/],
    ['htu of another host', () => key.proof('POST', 'https://elsewhere.example/api/token'), /htu must be/],
    ['iat 61 s old', () => key.proof('POST', tokenUrl(), { claims: { iat: now() - 61 } }), /iat must be within/],
    ['iat 30 s ahead', () => key.proof('POST', tokenUrl(), { claims: { iat: now() + 30 } }), /iat must be within/],
    ['no iat', () => key.proof('POST', tokenUrl(), { claims: { iat: undefined } }), /must have an iat/],
    ['no jti', () => key.proof('POST', tokenUrl(), { claims: { jti: undefined } }), /must have a jti/],
  ];

  let service: TestClient;
  beforeAll(async () => {
    service = await serviceClient();
  });
  afterAll(async () => {
    expect(await storedFor(service.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  });

  it.each(cases)('%s', async (_name, make, description) => {
    const { status, body } = await clientCredentials(service, await make());
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_dpop_proof');
    expect(String(body.error_description)).toMatch(description);
  });

  it('a replayed jti is refused (RFC 9449 11.1)', async () => {
    const fresh = await serviceClient();
    const proof = await key.proof('POST', tokenUrl());
    expect((await clientCredentials(fresh, proof)).status).toBe(200);
    const replay = await clientCredentials(fresh, proof);
    expect([replay.status, replay.body.error, replay.body.error_description]).toEqual([
      400,
      'invalid_dpop_proof',
      'The DPoP proof was already used.',
    ]);
    expect((await storedFor(fresh.client.clientId)).tokenRecords).toBe(1);
  });

  it('two DPoP headers are refused (RFC 9449 4.3 item 1)', async () => {
    const event = formEvent(
      '/api/token',
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(service.client.clientId, service.secret!) } },
    );
    event.multiValueHeaders.DPoP = [await key.proof('POST', tokenUrl()), await key.proof('POST', tokenUrl())];
    const result = await token(event, lambdaContext);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ error: 'invalid_dpop_proof', error_description: 'Send exactly one DPoP header.' });
  });
});

/** A proof with `alg: none` and no signature. */
function unsignedProof(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = part({ typ: 'dpop+jwt', alg: 'none', jwk: key.publicJwk });
  return `${header}.${part({ htm: 'POST', htu: tokenUrl(), jti: 'x', iat: Math.floor(Date.now() / 1000) })}.AAAA`;
}

/** The proof with another public key in its header: its signature no longer verifies. */
function swapKey(proof: string): string {
  const [, payload, signature] = proof.split('.');
  const header = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: stranger.publicJwk })).toString('base64url');
  return `${header}.${payload}.${signature}`;
}
