/**
 * The token signer (lambdas/adapters/signing/key-set.ts) signs with jose's SignJWT: what it writes
 * must be what a resource server's JOSE library accepts, for both SIGNING_ALG values, and a key
 * jose would not sign with is refused when the signer is made, not on a request.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { createSigner, generateKeySet, publicJwks, type SigningKeySet } from '../../../lambdas/adapters/signing/key-set';

describe.each(['RS256', 'ES256'] as const)('JWT signer, %s', (alg) => {
  test('RFC 7515/7519: jose verifies the token against the published JWKS, with the header and time claims set', async () => {
    const set = await generateKeySet(alg);
    const signer = await createSigner(set);
    expect({ kid: signer.kid, alg: signer.alg }).toEqual({ kid: set.currentKid, alg });
    const claims = { iss: 'https://issuer.example', sub: 'tgc_client', aud: 'https://api.example', scope: 'read write', jti: 'jti-1' };
    const token = await signer.sign(claims, { expiresIn: 3600, type: 'at+jwt', issuedAt: 1_800_000_000 });

    expect(decodeProtectedHeader(token)).toEqual({ alg, kid: set.currentKid, typ: 'at+jwt' });
    const { payload } = await jwtVerify(token, createLocalJWKSet(publicJwks(set)), {
      algorithms: [alg],
      typ: 'at+jwt',
      currentDate: new Date(1_800_000_100_000),
    });
    expect(payload).toEqual({ ...claims, iat: 1_800_000_000, exp: 1_800_003_600 });
  });

  test('each type gets its own header; the default typ is JWT', async () => {
    const set = await generateKeySet(alg);
    const signer = await createSigner(set);
    const first = await signer.sign({ sub: 'a' }, { expiresIn: 60, issuedAt: 1_800_000_000 });
    const second = await signer.sign({ sub: 'a' }, { expiresIn: 60, type: 'at+jwt', issuedAt: 1_800_000_000 });
    expect(decodeProtectedHeader(first).typ).toBe('JWT');
    expect(decodeProtectedHeader(second).typ).toBe('at+jwt');
  });
});

test('RFC 7518 section 3.4: an ES256 signature is r || s, 64 bytes, not DER', async () => {
  const signer = await createSigner(await generateKeySet('ES256'));
  const token = await signer.sign({ sub: 'a' }, { expiresIn: 60, issuedAt: 1_800_000_000 });
  expect(Buffer.from(token.split('.')[2]!, 'base64url')).toHaveLength(64);
});

describe("jose's key checks refuse a key set when the signer is made", () => {
  const setOf = (jwk: JWK): SigningKeySet => ({ currentKid: 'k1', keys: [{ ...jwk, kid: 'k1', use: 'sig' }] });
  const privateJwk = (pair: { privateKey: { export(options: { format: 'jwk' }): object } }) =>
    pair.privateKey.export({ format: 'jwk' }) as JWK;

  test('an EC key named RS256', async () => {
    const ec = privateJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    await expect(createSigner(setOf({ ...ec, alg: 'RS256' }))).rejects.toThrow(/alg/);
  });

  test('an RSA key named ES256', async () => {
    const rsa = privateJwk(generateKeyPairSync('rsa', { modulusLength: 2048 }));
    await expect(createSigner(setOf({ ...rsa, alg: 'ES256' }))).rejects.toThrow(/alg/);
  });

  test('a P-384 key named ES256 (RFC 7518 section 3.4: ES256 is P-256)', async () => {
    const p384 = privateJwk(generateKeyPairSync('ec', { namedCurve: 'P-384' }));
    await expect(createSigner(setOf({ ...p384, alg: 'ES256' }))).rejects.toThrow();
  });

  test('an RSA key under 2048 bits (RFC 7518 section 3.3)', async () => {
    const small = privateJwk(generateKeyPairSync('rsa', { modulusLength: 1024 }));
    await expect(createSigner(setOf({ ...small, alg: 'RS256' }))).rejects.toThrow(/2048 bits or larger/);
  });
});
