/**
 * `JwtAssertionVerifier` with jose: the header rules of core/jwt-assertions.ts first (no key is
 * looked at for `none` or HMAC), then the signature against the signer's JWKS (stored, or its
 * jwks_uri through RemoteJwksCache), then the claim rules. A JWK with its own `alg` is used for
 * that algorithm only (jose's key selection). An assertion naming a key the fetched set lacks
 * refetches the set once (the signer rotated), within the cache's cooldown.
 */
import { type CryptoKey, createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import {
  AssertionRejected,
  type AssertionExpectations,
  acceptedAlgorithms,
  checkAssertionClaims,
  checkAssertionHeader,
  defaultAssertionClockToleranceSeconds,
  type JwtAssertionVerifier,
  type KeySource,
  type VerifiedAssertion,
} from '../core/jwt-assertions';
import type { Clock } from '../core/ports';
import { type JsonWebKeySet, type RemoteJwksCache, RemoteJwksUnavailable } from './remote-jwks';

/** An assertion is a form field: bounded so a huge one is refused before any parsing. */
const maxAssertionLength = 16 * 1024;

function rejectionOf(error: unknown): AssertionRejected {
  if (error instanceof AssertionRejected) return error;
  if (error instanceof errors.JWTExpired) return new AssertionRejected('expired', 'exp has passed');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new AssertionRejected(error.claim === 'nbf' ? 'not-yet-valid' : 'malformed', `${error.claim}: ${error.reason}`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new AssertionRejected('signature', 'the signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) return new AssertionRejected('unknown-key', 'no key of the set matches kid and alg');
  if (error instanceof errors.JWKSInvalid || error instanceof errors.JWKInvalid)
    return new AssertionRejected('jwks-invalid', error.message);
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new AssertionRejected('alg', error.message);
  return new AssertionRejected('malformed', error instanceof Error ? error.message : 'not a JWS');
}

export function createJwtAssertionVerifier(clock: Clock, remoteJwks: RemoteJwksCache): JwtAssertionVerifier {
  async function verifyWith(jwt: string, jwks: JsonWebKeySet, expect: AssertionExpectations): Promise<JWTPayload> {
    const options = {
      algorithms: acceptedAlgorithms(expect),
      currentDate: new Date(clock.now()),
      clockTolerance: expect.clockToleranceSeconds ?? defaultAssertionClockToleranceSeconds,
    };
    try {
      const keySet = createLocalJWKSet(jwks as JSONWebKeySet);
      return (await jwtVerify(jwt, keySet, options)).payload;
    } catch (error) {
      // Several keys fit (no kid, same kty): the one that verifies is the signer's.
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw rejectionOf(error);
      let last: unknown = error;
      for await (const key of error as unknown as AsyncIterable<CryptoKey>) {
        try {
          return (await jwtVerify(jwt, key, options)).payload;
        } catch (next) {
          last = next;
          if (!(next instanceof errors.JWSSignatureVerificationFailed)) break;
        }
      }
      throw rejectionOf(last instanceof errors.JWKSMultipleMatchingKeys ? new errors.JWSSignatureVerificationFailed() : last);
    }
  }

  async function remote(url: string, lacksKey: boolean): Promise<JsonWebKeySet> {
    try {
      return await remoteJwks.get(url, lacksKey);
    } catch (error) {
      throw new AssertionRejected('jwks-unavailable', error instanceof RemoteJwksUnavailable ? `${url} ${error.message}` : url);
    }
  }

  async function verifiedClaims(jwt: string, keys: KeySource, expect: AssertionExpectations): Promise<JWTPayload> {
    if ('jwks' in keys) return verifyWith(jwt, keys.jwks, expect);
    const kept = await remote(keys.jwksUri, false);
    try {
      return await verifyWith(jwt, kept, expect);
    } catch (error) {
      if (!(error instanceof AssertionRejected && error.reason === 'unknown-key')) throw error;
      const refetched = await remote(keys.jwksUri, true);
      if (refetched === kept) throw error;
      return verifyWith(jwt, refetched, expect);
    }
  }

  return {
    async verify(jwt: string, keys: KeySource, expect: AssertionExpectations): Promise<VerifiedAssertion> {
      if (jwt.length > maxAssertionLength || jwt.split('.').length !== 3) throw new AssertionRejected('malformed', 'not a compact JWS');
      let header: Record<string, unknown>;
      try {
        header = decodeProtectedHeader(jwt) as Record<string, unknown>;
      } catch {
        throw new AssertionRejected('malformed', 'the header is not JSON');
      }
      checkAssertionHeader(header, expect);
      const claims = await verifiedClaims(jwt, keys, expect);
      checkAssertionClaims(claims as Record<string, unknown>, expect, Math.floor(clock.now() / 1000));
      return { header, claims };
    },
  };
}
