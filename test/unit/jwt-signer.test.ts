/**
 * The token signer builds the JWS itself and signs with node:crypto (lambdas/adapters/signing/key-set.ts):
 * what it writes must be what a resource server's JOSE library accepts, for both SIGNING_ALG values.
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createSigner, generateKeySet, publicJwks } from '../../lambdas/adapters/signing/key-set';

describe.each(['RS256', 'ES256'] as const)('JWT signer, %s', (alg) => {
  test('RFC 7515/7519: jose verifies the token against the published JWKS, with the header and time claims set', async () => {
    const set = await generateKeySet(alg);
    const signer = await createSigner(set);
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
