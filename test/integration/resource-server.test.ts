/**
 * The resource-server helper against the local server's published JWKS, as an MCP server
 * would use it: issuer and audience are required (behaviour RS-1), and RFC 9728 metadata points
 * clients at the authorization server.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { createSigner, type JwtSigner, type SigningKeySet } from '../../lambdas/adapters/signing/key-set';
import { fileKeySource } from '../../lambdas/adapters/signing/key-file';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { dpopKey, type DpopKey } from '../support/dpop';
import {
  BearerTokenError,
  createAccessTokenVerifier,
  metadataPath,
  protectedResourceMetadata,
  wwwAuthenticate,
} from '../../lambdas/resource-server';

const resource = 'https://mcp.example.test/mcp';
let app: LocalApp;
let dataDir: string;
let signer: JwtSigner;
let keySet: SigningKeySet;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-rs-test-'));
  app = await startLocalApp({
    port: 0,
    dataDir,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `rs-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL },
  });
  keySet = await fileKeySource(join(dataDir, 'signing-keys.json'))();
  signer = await createSigner(keySet);
});

afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);
const mint = (claims: Record<string, unknown>, options: { type?: string; expiresIn?: number; issuedAt?: number } = {}) =>
  signer.sign(
    { iss: app.url, aud: resource, sub: 'usr_1', client_id: 'tgc_1', scope: 'openid profile', jti: randomUUID(), ...claims },
    { expiresIn: options.expiresIn ?? 300, type: options.type ?? 'at+jwt', issuedAt: options.issuedAt ?? now() },
  );

async function rejection(promise: Promise<unknown>): Promise<BearerTokenError> {
  try {
    await promise;
  } catch (error) {
    return error as BearerTokenError;
  }
  throw new Error('expected the token to be rejected');
}

describe('resource-server helper (behaviour RS-1, RFC 9068 4, RFC 9728)', () => {
  const verifierFor = (overrides: Partial<Parameters<typeof createAccessTokenVerifier>[0]> = {}) =>
    createAccessTokenVerifier({ issuer: app.url, jwksUri: `${app.url}/jwks.json`, resource, ...overrides });

  it('accepts a token minted for this resource by this issuer, from a Bearer header', async () => {
    const token = await verifierFor()(`Bearer ${await mint({})}`);
    expect(token).toMatchObject({ sub: 'usr_1', client_id: 'tgc_1', scopes: ['openid', 'profile'] });
  });

  it('rejects a token minted for another resource (RFC 8707 audience binding)', async () => {
    const error = await rejection(verifierFor()(await mint({ aud: 'https://other.example.test/mcp' })));
    expect(error).toBeInstanceOf(BearerTokenError);
    expect(error.code).toBe('invalid_token');
    expect(error.status).toBe(401);
  });

  it('rejects another issuer, an expired token, and a JWT that is not an access token (typ)', async () => {
    const verify = verifierFor();
    expect((await rejection(verify(await mint({ iss: 'https://evil.example.test' })))).code).toBe('invalid_token');
    expect(await rejection(verify(await mint({}, { issuedAt: now() - 7200, expiresIn: 60 })))).toMatchObject({ code: 'invalid_token' });
    expect(await rejection(verify(await mint({}, { type: 'JWT' })))).toMatchObject({ code: 'invalid_token' });
  });

  it('answers a missing token with invalid_request and a missing scope with insufficient_scope (RFC 6750 3.1)', async () => {
    const missing = await rejection(verifierFor()(undefined));
    expect(missing).toMatchObject({ code: 'invalid_request', status: 401 });
    // RFC 6750 3.1: no token presented at all, so the challenge names no error.
    expect(wwwAuthenticate(resource, missing)).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    const error = await rejection(verifierFor({ requiredScopes: ['tools:call'] })(await mint({})));
    expect(error).toMatchObject({ code: 'insufficient_scope', status: 403 });
  });

  it('serves RFC 9728 metadata at the well-known path inserted before the resource path, and points to it', () => {
    expect(metadataPath(resource)).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(protectedResourceMetadata({ resource, authorizationServers: [app.url], scopesSupported: ['openid'] })).toEqual({
      resource,
      authorization_servers: [app.url],
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid'],
    });
    expect(wwwAuthenticate(resource)).toBe('Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"');
  });
});

describe("this server's own verifier for functions without the private key", () => {
  it('verifies its access tokens against the published JWKS, requiring the issuer and audience', async () => {
    const { createRemoteVerifier } = await import('../../lambdas/adapters/signing/verifier');
    const verifier = createRemoteVerifier(`${app.url}/jwks.json`);
    const token = await mint({ aud: app.url });
    await expect(verifier.verify(token, { issuer: app.url, audience: app.url })).resolves.toMatchObject({ sub: 'usr_1' });
    await expect(verifier.verify(token, { issuer: app.url, audience: 'https://elsewhere.example.test' })).rejects.toThrow();
    await expect(verifier.verify(await mint({ aud: app.url }, { type: 'JWT' }), { issuer: app.url, audience: app.url })).rejects.toThrow();
  });
});

describe('behaviour RS-1, CLAIM-7 / RFC 9068 2.2: exp, iat and jti are required, and iat may not be in the future', () => {
  /** Signed with the server's real key, with exactly the claims given (no defaults added). */
  async function signExactly(claims: JWTPayload): Promise<string> {
    const jwk = keySet.keys.find((k) => k.kid === keySet.currentKid)!;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: jwk.alg!, kid: keySet.currentKid, typ: 'at+jwt' })
      .sign(await importJWK(jwk, jwk.alg!));
  }
  const complete = () => ({
    iss: app.url,
    aud: resource,
    sub: 'usr_1',
    client_id: 'tgc_1',
    scope: 'openid',
    jti: randomUUID(),
    iat: now(),
    exp: now() + 300,
  });
  const without = (name: 'exp' | 'iat' | 'jti') => {
    const { [name]: _dropped, ...rest } = complete();
    return rest;
  };

  it.each([
    ['no exp', () => without('exp')],
    ['no iat', () => without('iat')],
    ['no jti', () => without('jti')],
    ['iat an hour in the future', () => ({ ...complete(), iat: now() + 3600, exp: now() + 7200 })],
  ])("a validly signed token with %s is refused by the resource-server helper and by the server's own verifier", async (_, claims) => {
    const token = await signExactly(claims());
    expect((await rejection(createAccessTokenVerifier({ issuer: app.url, jwksUri: `${app.url}/jwks.json`, resource })(token))).code).toBe(
      'invalid_token',
    );
    const { createRemoteVerifier } = await import('../../lambdas/adapters/signing/verifier');
    await expect(createRemoteVerifier(`${app.url}/jwks.json`).verify(token, { issuer: app.url, audience: resource })).rejects.toThrow();
    // The HTTP surface: the server's own bearer check refuses it too.
    const ownToken = await signExactly({ ...claims(), aud: app.url });
    const validated = await fetch(`${app.url}/api/token/validate`, { headers: { authorization: `Bearer ${ownToken}` } });
    expect(validated.status).toBe(401);
  });

  it('an iat a few seconds ahead (clock skew within 30 s) is accepted', async () => {
    const token = await signExactly({ ...complete(), iat: now() + 10 });
    await expect(createAccessTokenVerifier({ issuer: app.url, jwksUri: `${app.url}/jwks.json`, resource })(token)).resolves.toMatchObject({
      sub: 'usr_1',
    });
  });
});

describe('resource-server helper: DPoP-bound tokens (behaviour RS-2, RFC 9449 7)', () => {
  const url = `${resource}/tools`;
  let key: DpopKey;
  let stranger: DpopKey;
  beforeAll(async () => {
    key = await dpopKey();
    stranger = await dpopKey();
  });
  const verifierFor = (overrides: Partial<Parameters<typeof createAccessTokenVerifier>[0]> = {}) =>
    createAccessTokenVerifier({ issuer: app.url, jwksUri: `${app.url}/jwks.json`, resource, ...overrides });
  const bound = () => mint({ cnf: { jkt: key.jkt } });
  const request = async (token: string, signer = key, claims: Record<string, unknown> = {}) => ({
    method: 'POST',
    url,
    dpop: await signer.proof('POST', url, { accessToken: token, claims }),
  });

  it('accepts a bound token sent as DPoP with a proof of its key for this request', async () => {
    const token = await bound();
    await expect(verifierFor()(`DPoP ${token}`, await request(token))).resolves.toMatchObject({ cnf: { jkt: key.jkt } });
  });

  it.each([
    ['sent as Bearer (RFC 9449 7.2)', async (token: string) => [`Bearer ${token}`, await request(token)] as const, 'invalid_token'],
    ['without the request', async (token: string) => [`DPoP ${token}`, undefined] as const, 'invalid_dpop_proof'],
    ['without a proof', async (token: string) => [`DPoP ${token}`, { method: 'POST', url }] as const, 'invalid_dpop_proof'],
    ['a proof of another key', async (token: string) => [`DPoP ${token}`, await request(token, stranger)] as const, 'invalid_dpop_proof'],
    [
      'a proof for another token (ath)',
      async (token: string) => [`DPoP ${token}`, await request(`${token}x`)] as const,
      'invalid_dpop_proof',
    ],
    [
      'a proof for GET',
      async (token: string) => [`DPoP ${token}`, { ...(await request(token)), method: 'GET' }] as const,
      'invalid_dpop_proof',
    ],
    [
      'a proof for another URL',
      async (token: string) => [`DPoP ${token}`, { ...(await request(token)), url: `${resource}/other` }] as const,
      'invalid_dpop_proof',
    ],
    [
      'a stale proof',
      async (token: string) => [`DPoP ${token}`, await request(token, key, { iat: now() - 120 })] as const,
      'invalid_dpop_proof',
    ],
  ])('refuses a bound token %s: 401 with the DPoP challenge', async (_name, make, code) => {
    const [authorization, dpopRequest] = await make(await bound());
    const error = await rejection(verifierFor()(authorization, dpopRequest));
    expect(error).toMatchObject({ code, status: 401, scheme: 'DPoP' });
    expect(wwwAuthenticate(resource, error)).toMatch(
      new RegExp(`^DPoP algs="ES256 ES384 PS256 RS256 EdDSA", resource_metadata="[^"]+", error="${code}"`),
    );
  });

  it('refuses a replayed proof with the in-memory cache, and an unbound token sent as DPoP', async () => {
    const verify = verifierFor();
    const token = await bound();
    const once = await request(token);
    await verify(`DPoP ${token}`, once);
    expect(await rejection(verify(`DPoP ${token}`, once))).toMatchObject({
      code: 'invalid_dpop_proof',
      message: 'The DPoP proof was already used.',
    });
    const unbound = await mint({});
    expect(await rejection(verify(`DPoP ${unbound}`, await request(unbound)))).toMatchObject({ code: 'invalid_token', scheme: 'DPoP' });
  });

  it('uses the replay cache and the nonces given (RFC 9449 9)', async () => {
    const used: string[] = [];
    const verify = verifierFor({
      dpop: {
        replayCache: {
          use: (id) => {
            if (used.includes(id)) return false;
            used.push(id);
            return true;
          },
        },
        nonces: { current: () => 'nonce-2', accepts: (nonce) => nonce === 'nonce-1' || nonce === 'nonce-2' },
      },
    });
    const token = await bound();
    const error = await rejection(verify(`DPoP ${token}`, await request(token)));
    expect(error).toMatchObject({ code: 'use_dpop_nonce', status: 401, dpopNonce: 'nonce-2' });
    expect(used).toEqual([]);
    await expect(verify(`DPoP ${token}`, await request(token, key, { nonce: 'nonce-2' }))).resolves.toMatchObject({ client_id: 'tgc_1' });
    expect(used).toHaveLength(1);
    expect(used[0]).toMatch(new RegExp(`^${key.jkt}:`));
  });

  it('metadata lists the DPoP algorithms when the resource takes DPoP', () => {
    expect(protectedResourceMetadata({ resource, authorizationServers: [app.url], dpop: true })).toMatchObject({
      dpop_signing_alg_values_supported: ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'],
    });
  });
});
