/**
 * What the two profiles of the JWT-bearer grant (RFC 7523 2.1) share: finding the assertion's
 * issuer before anything is trusted, verifying it against the trusted issuer's keys, its `jti`
 * used once, and the one refusal, `invalid_grant` (RFC 7523 3.1), with a description a person can
 * act on and the verifier's reason kept for the activity row (behaviour JWTB-2).
 */
import { InvalidGrantError } from '../errors';
import { AssertionRejected, type AssertionExpectations, type KeySource, type VerifiedAssertion } from '../jwt-assertions';
import type { TrustedIssuer } from '../trusted-issuers/model';
import type { AssertionGrantPorts } from './ports';

/** One refusal of the grant: the description goes on the wire, the reason to the activity row only. */
export const refuseGrant = (description: string, reason: string) => new InvalidGrantError(description, reason);

/** The verifier's reasons, worded for the caller; they name what to fix, never which key nearly matched. */
const described: Readonly<Record<string, string>> = {
  malformed: 'The assertion is not a well-formed signed JWT.',
  alg: 'The assertion is signed with an algorithm this server does not accept.',
  typ: 'The assertion has the wrong type (JWT header typ).',
  signature: "The assertion's signature does not verify with the issuer's keys.",
  'unknown-key': "The assertion's signature does not verify with the issuer's keys.",
  'jwks-unavailable': "The issuer's keys could not be read; try again later.",
  'jwks-invalid': "The issuer's keys could not be read; try again later.",
  audience: 'The assertion is not addressed to this server (aud).',
  issuer: 'The assertion was issued by another issuer (iss).',
  subject: 'The assertion names another subject (sub).',
  expired: 'The assertion has expired.',
  'not-yet-valid': 'The assertion is not valid yet (nbf).',
  'issued-in-future': 'The assertion was issued in the future (iat).',
  lifetime: 'The assertion lives longer than this server accepts (exp - iat).',
  jti: 'The assertion has no jti, or one that is too long.',
  replayed: 'The assertion was already used.',
};

export function refusalOf(error: AssertionRejected): InvalidGrantError {
  return refuseGrant(described[error.reason] ?? 'The assertion was refused.', `assertion ${error.message}`);
}

/** Bounds reading the unverified payload: far above any real assertion, and the form field caps it too. */
const maxAssertionLength = 16_384;

/**
 * The `iss` of an assertion not yet verified: only to find which trusted issuer's keys verify it
 * (RFC 7523 3, point 1); nothing else is read from it before the signature holds.
 */
export function unverifiedIssuer(jwt: string): string {
  const parts = jwt.length <= maxAssertionLength ? jwt.split('.') : [];
  let payload: unknown;
  try {
    payload = parts.length === 3 ? JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) : undefined;
  } catch {
    payload = undefined;
  }
  const iss = (payload as { iss?: unknown } | undefined)?.iss;
  if (typeof iss !== 'string' || iss.length === 0 || iss.length > 2048) {
    throw refuseGrant('The assertion is not a well-formed signed JWT with an issuer (iss).', 'assertion malformed or without iss');
  }
  return iss;
}

export function keySourceOf(trusted: Pick<TrustedIssuer, 'jwks' | 'jwksUri' | 'trustedIssuerId'>): KeySource {
  if (trusted.jwks) return { jwks: trusted.jwks };
  if (trusted.jwksUri) return { jwksUri: trusted.jwksUri };
  throw new Error(`trusted issuer ${trusted.trustedIssuerId} has neither jwks nor jwks_uri`);
}

/** Verifies signature and claims (RFC 7523 3); every rejection is the grant's refusal. */
export async function verifyGrantAssertion(
  assertion: string,
  trusted: TrustedIssuer,
  expect: AssertionExpectations,
  ports: Pick<AssertionGrantPorts, 'verifier'>,
): Promise<VerifiedAssertion> {
  try {
    return await ports.verifier.verify(assertion, keySourceOf(trusted), expect);
  } catch (error) {
    if (error instanceof AssertionRejected) throw refusalOf(error);
    throw error;
  }
}

/**
 * RFC 7523 3, point 7: the `jti` (the verifier required one) is used once per issuer until the
 * assertion expires; a second use is refused (behaviour JWTB-3). Called after every other check,
 * so a refusal for another reason leaves the assertion unused.
 */
export async function useAssertionOnce(claims: Readonly<Record<string, unknown>>, ports: Pick<AssertionGrantPorts, 'singleUseIds'>) {
  const iss = String(claims.iss);
  const jti = String(claims.jti);
  if (!(await ports.singleUseIds.use('authorization-grant', iss, jti, Number(claims.exp)))) {
    throw refuseGrant(described.replayed!, `assertion jti ${jti.slice(0, 64)} of ${iss} already used`);
  }
}

/** A string claim, or undefined when absent or of another type. */
export const stringClaim = (claims: Readonly<Record<string, unknown>>, name: string): string | undefined =>
  typeof claims[name] === 'string' && (claims[name] as string).length > 0 ? (claims[name] as string) : undefined;
