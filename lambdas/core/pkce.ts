import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/;
/** The S256 challenge is a base64url SHA-256: 43 characters. */
export const challengePattern = /^[A-Za-z0-9\-_]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 section 4.6, S256 only (OAuth 2.1 forbids `plain` for new deployments here). */
export function verifyPkce(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !verifierPattern.test(verifier)) return false;
  const expected = Buffer.from(challenge);
  const actual = Buffer.from(s256(verifier));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
