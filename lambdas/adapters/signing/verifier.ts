import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { publicJwks, type SigningKeySet } from './key-set';

export interface VerifyOptions {
  readonly issuer: string;
  /** Required audience; omit to accept any (the caller then checks it). */
  readonly audience?: string;
}

export interface AccessTokenVerifier {
  /** The token's claims, or an error for a bad signature, issuer, audience, type or expiry. */
  verify(token: string, options: VerifyOptions): Promise<JWTPayload>;
}

/** Verifies this server's own access tokens against the published keys (RFC 9068 section 4). */
export function createVerifier(set: SigningKeySet): AccessTokenVerifier {
  const keys = createLocalJWKSet(publicJwks(set));
  return {
    verify: async (token, { issuer, audience }) => {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        ...(audience ? { audience } : {}),
        typ: 'at+jwt',
        algorithms: ['RS256', 'ES256'],
      });
      return payload;
    },
  };
}
