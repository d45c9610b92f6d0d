import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
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

type KeyLookup = Parameters<typeof jwtVerify>[1];

/**
 * RFC 9068 2.2: an access token carries exp, iat and jti; a validly signed token without
 * them, or issued in the future, is refused. jose checks `iat` against the clock only with
 * a maximum age, so one is set (longer than any token this server issues); 30 s of skew.
 */
export const accessTokenClaimRules: Pick<JWTVerifyOptions, 'requiredClaims' | 'maxTokenAge' | 'clockTolerance'> = {
  requiredClaims: ['exp', 'iat', 'jti'],
  maxTokenAge: '1d',
  clockTolerance: 30,
};

/** Verifies this server's own access tokens against the published keys (RFC 9068 section 4). */
export function createVerifier(set: SigningKeySet): AccessTokenVerifier {
  return verifierWith(createLocalJWKSet(publicJwks(set)) as KeyLookup);
}

/**
 * Verifies against the published JWKS, as any resource server does: a function that only
 * checks tokens never holds the private key. The set is fetched once per container and
 * again when a token names an unknown `kid` (after a rotation).
 */
export function createRemoteVerifier(jwksUri: string): AccessTokenVerifier {
  return verifierWith(createRemoteJWKSet(new URL(jwksUri), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 }) as KeyLookup);
}

function verifierWith(keys: KeyLookup): AccessTokenVerifier {
  return {
    verify: async (token, { issuer, audience }) => {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        ...(audience ? { audience } : {}),
        typ: 'at+jwt',
        algorithms: ['RS256', 'ES256'],
        ...accessTokenClaimRules,
      });
      return payload;
    },
  };
}
