import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createJwtAssertionVerifier } from '../../lambdas/adapters/jwt-assertion-verifier';
import { fetchMetadataDocument } from '../../lambdas/adapters/metadata-document-fetcher';
import { freshSecondsOf, RemoteJwksCache, remoteJwksLimits } from '../../lambdas/adapters/remote-jwks';
import { type AssertionExpectations, AssertionRejected, type KeySource } from '../../lambdas/core/jwt-assertions';

/** A clock the test moves. */
const clock = { ms: Date.now(), now: () => clock.ms };
const nowEpoch = () => Math.floor(clock.ms / 1000);

let server: Server;
let base: string;
/** What the JWKS server answers per path; `hits` counts its fetches. */
const served = new Map<string, { status?: number; body: unknown; cacheControl?: string }>();
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = served.get(path);
    if (!answer) {
      response.writeHead(404);
      return response.end();
    }
    response.writeHead(answer.status ?? 200, {
      'content-type': 'application/json',
      ...(answer.cacheControl ? { 'cache-control': answer.cacheControl } : {}),
    });
    return response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

interface Signer {
  readonly jwk: JWK;
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
}

async function signer(alg = 'ES256', kid = `k-${Math.random()}`, withAlg = true): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, ...(withAlg ? { alg } : {}) };
  return {
    jwk,
    sign: (claims, header = {}) => new SignJWT(claims).setProtectedHeader({ alg, kid, ...header }).sign(privateKey),
  };
}

const audience = 'https://as.example';
const expect300: AssertionExpectations = { audiences: [audience], issuer: 'client-1', subject: 'client-1', maxLifetimeSeconds: 300 };
const goodClaims = (overrides: Record<string, unknown> = {}) => ({
  iss: 'client-1',
  sub: 'client-1',
  aud: audience,
  iat: nowEpoch(),
  exp: nowEpoch() + 60,
  jti: `j-${Math.random()}`,
  ...overrides,
});

const realFetch = (url: string, maxBytes: number) => fetchMetadataDocument(url, true, 2000, undefined, maxBytes);
const newVerifier = (fetch = realFetch) => createJwtAssertionVerifier(clock, new RemoteJwksCache(fetch, clock));

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AssertionRejected);
  return (error as AssertionRejected).reason;
}

describe('JWT assertions (RFC 7523 3): the shared verifier', () => {
  it('verifies an assertion against a stored JWKS and returns its header and claims', async () => {
    const key = await signer();
    const jwt = await key.sign(goodClaims());
    const verified = await newVerifier().verify(jwt, { jwks: { keys: [key.jwk] } }, expect300);
    expect(verified.header).toMatchObject({ alg: 'ES256', kid: key.jwk.kid });
    expect(verified.claims).toMatchObject({ iss: 'client-1', sub: 'client-1' });
  });

  it('accepts aud as an array naming an expected audience (RFC 7523 3, point 3)', async () => {
    const key = await signer();
    const jwt = await key.sign(goodClaims({ aud: ['https://other.example', audience] }));
    await expect(newVerifier().verify(jwt, { jwks: { keys: [key.jwk] } }, expect300)).resolves.toBeDefined();
  });

  it('finds the signing key among several that fit when the header names no kid', async () => {
    const [a, b] = [await signer('ES256', 'a'), await signer('ES256', 'b')];
    const jwt = await b.sign(goodClaims(), { kid: undefined });
    await expect(newVerifier().verify(jwt, { jwks: { keys: [a.jwk, b.jwk] } }, expect300)).resolves.toBeDefined();
    const stranger = await signer('ES256', 'c');
    const forged = await stranger.sign(goodClaims(), { kid: undefined });
    expect(await reasonOf(newVerifier().verify(forged, { jwks: { keys: [a.jwk, b.jwk] } }, expect300))).toBe('signature');
  });

  describe('each refusal names its reason (for the log)', () => {
    const cases: [string, (key: Signer) => Promise<string>, Partial<AssertionExpectations>?][] = [
      ['audience', (key) => key.sign(goodClaims({ aud: 'https://elsewhere.example' }))],
      ['audience', (key) => key.sign(goodClaims({ aud: undefined }))],
      ['issuer', (key) => key.sign(goodClaims({ iss: 'client-2' }))],
      ['subject', (key) => key.sign(goodClaims({ sub: 'client-2' }))],
      ['expired', (key) => key.sign(goodClaims({ iat: nowEpoch() - 200, exp: nowEpoch() - 100 }))],
      ['expired', (key) => key.sign(goodClaims({ exp: undefined }))],
      ['not-yet-valid', (key) => key.sign(goodClaims({ nbf: nowEpoch() + 120 }))],
      ['issued-in-future', (key) => key.sign(goodClaims({ iat: nowEpoch() + 120, exp: nowEpoch() + 180 }))],
      ['lifetime', (key) => key.sign(goodClaims({ exp: nowEpoch() + 301 }))],
      ['lifetime', (key) => key.sign(goodClaims({ iat: undefined, exp: nowEpoch() + 400 }))],
      ['jti', (key) => key.sign(goodClaims({ jti: undefined }))],
      ['typ', (key) => key.sign(goodClaims(), { typ: 'JWT' }), { typ: 'oauth-id-jag+jwt' }],
      ['alg', (key) => key.sign(goodClaims()), { algorithms: ['RS256'] }],
      ['malformed', async () => 'not.a-jwt'],
      ['malformed', async (key) => `${await key.sign(goodClaims())}.extra.parts`],
    ];
    it.each(cases)('%s', async (...[reason, make, overrides]) => {
      const key = await signer();
      const jwt = await make(key);
      expect(await reasonOf(newVerifier().verify(jwt, { jwks: { keys: [key.jwk] } }, { ...expect300, ...overrides }))).toBe(reason);
    });

    it('typ matches without case and with the application/ prefix (RFC 8725 3.11)', async () => {
      const key = await signer();
      const jwt = await key.sign(goodClaims(), { typ: 'application/OAuth-ID-JAG+JWT' });
      await expect(
        newVerifier().verify(jwt, { jwks: { keys: [key.jwk] } }, { ...expect300, typ: 'oauth-id-jag+jwt' }),
      ).resolves.toBeDefined();
    });

    it('signature: signed by another key under the same kid', async () => {
      const [key, impostor] = [await signer('ES256', 'same'), await signer('ES256', 'same')];
      const jwt = await impostor.sign(goodClaims());
      expect(await reasonOf(newVerifier().verify(jwt, { jwks: { keys: [key.jwk] } }, expect300))).toBe('signature');
    });

    it('alg: none and HMAC are refused before any key is looked at, even when listed', async () => {
      const key = await signer();
      const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(goodClaims())).toString('base64url')}.`;
      const secret = new TextEncoder().encode('s'.repeat(32));
      const hmac = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'HS256', kid: key.jwk.kid }).sign(secret);
      const anything = { ...expect300, algorithms: ['none', 'HS256', 'ES256'] };
      expect(await reasonOf(newVerifier().verify(none, { jwks: { keys: [key.jwk] } }, anything))).toBe('alg');
      expect(await reasonOf(newVerifier().verify(hmac, { jwks: { keys: [key.jwk] } }, anything))).toBe('alg');
    });

    it("unknown-key: the key's own alg pins it (an RS-signed JWT never meets an ES key, a kid nobody has)", async () => {
      const key = await signer('ES256', 'pinned');
      const rsa = await signer('RS256', 'pinned');
      expect(await reasonOf(newVerifier().verify(await rsa.sign(goodClaims()), { jwks: { keys: [key.jwk] } }, expect300))).toBe(
        'unknown-key',
      );
      const other = await signer('ES256', 'nobody');
      expect(await reasonOf(newVerifier().verify(await other.sign(goodClaims()), { jwks: { keys: [key.jwk] } }, expect300))).toBe(
        'unknown-key',
      );
    });

    it('jwks-invalid: a private key in the set is never used', async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const privateJwk = { ...(await exportJWK(privateKey)), kid: 'p', alg: 'ES256' };
      const jwt = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'ES256', kid: 'p' }).sign(privateKey);
      expect(await reasonOf(newVerifier().verify(jwt, { jwks: { keys: [privateJwk] } }, expect300))).toBe('jwks-invalid');
    });
  });
});

describe('jwks_uri: fetched through the guarded fetcher, cached per URL', () => {
  const uniquePath = () => `/jwks-${Math.random().toString(36).slice(2)}`;
  const source = (path: string): KeySource => ({ jwksUri: `${base}${path}` });

  it('fetches the set once and reuses it while fresh (Cache-Control max-age)', async () => {
    const key = await signer();
    const path = uniquePath();
    served.set(path, { body: { keys: [key.jwk] }, cacheControl: 'max-age=120' });
    const verifier = newVerifier();
    await verifier.verify(await key.sign(goodClaims()), source(path), expect300);
    await verifier.verify(await key.sign(goodClaims()), source(path), expect300);
    expect(hits.get(path)).toBe(1);
    clock.ms += 121_000;
    await verifier.verify(await key.sign(goodClaims()), source(path), expect300);
    expect(hits.get(path)).toBe(2);
  });

  it('refetches once on an unknown kid (the signer rotated), then not again within the cooldown', async () => {
    const [old, rotated, forged] = [await signer(), await signer(), await signer()];
    const path = uniquePath();
    served.set(path, { body: { keys: [old.jwk] }, cacheControl: 'max-age=3600' });
    const verifier = newVerifier();
    await verifier.verify(await old.sign(goodClaims()), source(path), expect300);
    served.set(path, { body: { keys: [rotated.jwk] }, cacheControl: 'max-age=3600' });
    clock.ms += (remoteJwksLimits.unknownKeyCooldownSeconds + 1) * 1000;
    await verifier.verify(await rotated.sign(goodClaims()), source(path), expect300);
    expect(hits.get(path)).toBe(2);
    expect(await reasonOf(verifier.verify(await forged.sign(goodClaims()), source(path), expect300))).toBe('unknown-key');
    expect(await reasonOf(verifier.verify(await forged.sign(goodClaims()), source(path), expect300))).toBe('unknown-key');
    expect(hits.get(path)).toBe(2);
  });

  it('serves the kept set while the host is down, for a bounded time (jwks-unavailable after)', async () => {
    const key = await signer();
    const path = uniquePath();
    served.set(path, { body: { keys: [key.jwk] }, cacheControl: 'max-age=60' });
    const verifier = newVerifier();
    await verifier.verify(await key.sign(goodClaims()), source(path), expect300);
    served.set(path, { status: 503, body: {} });
    clock.ms += 61_000;
    await expect(verifier.verify(await key.sign(goodClaims()), source(path), expect300)).resolves.toBeDefined();
    clock.ms += remoteJwksLimits.staleSeconds * 1000;
    expect(await reasonOf(verifier.verify(await key.sign(goodClaims()), source(path), expect300))).toBe('jwks-unavailable');
  });

  it('jwks-unavailable: unreachable, not JSON, not a key set, or larger than the cap', async () => {
    const key = await signer();
    const notASet = uniquePath();
    served.set(notASet, { body: { keys: 'no' } });
    const huge = uniquePath();
    served.set(huge, { body: { keys: [key.jwk], padding: 'x'.repeat(remoteJwksLimits.maxBytes) } });
    const jwt = await key.sign(goodClaims());
    for (const path of ['/missing', notASet, huge]) {
      expect(await reasonOf(newVerifier().verify(jwt, source(path), expect300))).toBe('jwks-unavailable');
    }
    expect(await reasonOf(newVerifier().verify(jwt, { jwksUri: 'http://127.0.0.1:1/jwks' }, expect300))).toBe('jwks-unavailable');
  });

  it('a set larger than a metadata document (5 KiB) but within 64 KiB is fetched', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => signer('RS256')));
    const path = uniquePath();
    served.set(path, { body: { keys: keys.map((k) => k.jwk) } });
    await expect(newVerifier().verify(await keys[7]!.sign(goodClaims()), source(path), expect300)).resolves.toBeDefined();
  });

  it('outside local mode, a jwks_uri on a private address is never fetched (the metadata-document guard)', async () => {
    const key = await signer();
    const path = uniquePath();
    served.set(path, { body: { keys: [key.jwk] } });
    const guarded = (url: string, maxBytes: number) => fetchMetadataDocument(url, false, 2000, undefined, maxBytes);
    expect(await reasonOf(newVerifier(guarded).verify(await key.sign(goodClaims()), source(path), expect300))).toBe('jwks-unavailable');
    expect(hits.get(path)).toBeUndefined();
  });
});

describe('jwks_uri freshness: Cache-Control honoured within bounds', () => {
  it.each([
    [undefined, remoteJwksLimits.defaultFreshSeconds],
    ['max-age=600', 600],
    ['public, max-age=5', remoteJwksLimits.minFreshSeconds],
    ['no-store', remoteJwksLimits.minFreshSeconds],
    ['max-age=31536000', remoteJwksLimits.maxFreshSeconds],
  ])('%s', (header, seconds) => {
    expect(freshSecondsOf(header)).toBe(seconds);
  });
});
