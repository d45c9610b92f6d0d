/**
 * Verifying this server's access tokens (RFC 9068 4): one verifier for the service's own
 * bearer checks and the resource-server helper. Depends on `jose` alone, so the helper that
 * resource servers import stays small.
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyOptions } from 'jose';

export interface VerifyOptions {
  readonly issuer: string;
  /** Required audience; omit to accept any (the caller then checks it). */
  readonly audience?: string;
  /** Accepted clock skew in seconds. @default 30 */
  readonly clockToleranceSeconds?: number;
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

/** Verifies against a JWKS at hand (the public half of the local key file). */
export function createLocalVerifier(jwks: JSONWebKeySet): AccessTokenVerifier {
  return verifierWith(createLocalJWKSet(jwks) as KeyLookup);
}

/**
 * Verifies against the published JWKS, as any resource server does: a function that only
 * checks tokens never holds the private key, and the resource-server helper
 * (lambdas/resource-server) is this same verifier. The set is fetched once per container and
 * again when a token names an unknown `kid` (after a rotation).
 */
export function createRemoteVerifier(jwksUri: string): AccessTokenVerifier {
  return verifierWith(createRemoteJWKSet(new URL(jwksUri), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 }) as KeyLookup);
}

function verifierWith(keys: KeyLookup): AccessTokenVerifier {
  return {
    verify: async (token, { issuer, audience, clockToleranceSeconds }) => {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        ...(audience ? { audience } : {}),
        typ: 'at+jwt',
        algorithms: ['RS256', 'ES256'],
        ...accessTokenClaimRules,
        ...(clockToleranceSeconds !== undefined ? { clockTolerance: clockToleranceSeconds } : {}),
      });
      return payload;
    },
  };
}
