/**
 * JWT assertions a party signs with its own key and presents to this server: a client's
 * `private_key_jwt` (RFC 7523 2.2), an authorization grant (RFC 7523 2.1: ID-JAG, a workload's
 * token). The rules every such assertion meets are here; the signature is checked by an adapter
 * (jose) behind `JwtAssertionVerifier`. The `jti` single use is the caller's, since what an
 * identifier is unique within (the issuer, the client) depends on the kind of assertion.
 */

/** Where the signer's public keys are: stored with the record, or fetched from its jwks_uri. */
export type KeySource = { readonly jwks: { readonly keys: readonly Record<string, unknown>[] } } | { readonly jwksUri: string };

export interface AssertionExpectations {
  /** `aud` must name one of these (RFC 7523 3, point 3). */
  readonly audiences: readonly string[];
  readonly issuer?: string;
  readonly subject?: string;
  /** The header `typ`, compared as RFC 8725 3.11 says (case-insensitive, `application/` optional). */
  readonly typ?: string;
  /** Defaults to `assertionSigningAlgorithms`; never `none` nor an HMAC whatever is listed. */
  readonly algorithms?: readonly string[];
  /** `exp` minus `iat` (or minus now, without `iat`) may be at most this. */
  readonly maxLifetimeSeconds: number;
  readonly clockToleranceSeconds?: number;
}

export interface VerifiedAssertion {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Why an assertion was refused, for the log and the activity row only: the caller answers with
 * its own error code and a description that does not help an attacker tune a forgery.
 */
export type AssertionRejectionReason =
  | 'malformed'
  | 'alg'
  | 'typ'
  | 'signature'
  | 'unknown-key'
  | 'jwks-unavailable'
  | 'jwks-invalid'
  | 'audience'
  | 'issuer'
  | 'subject'
  | 'expired'
  | 'not-yet-valid'
  | 'issued-in-future'
  | 'lifetime'
  | 'jti'
  | 'replayed';

export class AssertionRejected extends Error {
  override name = 'AssertionRejected';
  constructor(
    readonly reason: AssertionRejectionReason | (string & {}),
    detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
  }
}

export interface JwtAssertionVerifier {
  verify(jwt: string, keys: KeySource, expect: AssertionExpectations): Promise<VerifiedAssertion>;
}

/**
 * The asymmetric JWS algorithms (RFC 7518 3.1, RFC 8037) an assertion may be signed with, in the
 * order discovery lists them (`token_endpoint_auth_signing_alg_values_supported`). No HMAC: a
 * shared secret would be a client secret stored in the clear; never `none`.
 */
export const assertionSigningAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/** Clock skew allowed on `exp`, `nbf` and `iat` unless the caller says otherwise. */
export const defaultAssertionClockToleranceSeconds = 30;

const isNone = (alg: string) => alg.toLowerCase() === 'none';
const isHmac = (alg: string) => /^HS\d+$/i.test(alg);

/** The algorithms a verification may accept: the caller's list, less anything symmetric or unsigned. */
export function acceptedAlgorithms(expect: Pick<AssertionExpectations, 'algorithms'>): string[] {
  return (expect.algorithms ?? assertionSigningAlgorithms).filter((alg) => !isNone(alg) && !isHmac(alg));
}

/** RFC 8725 3.11: `typ` compared without case, the `application/` prefix optional. */
export function typMatches(actual: unknown, expected: string): boolean {
  if (typeof actual !== 'string') return false;
  const bare = (value: string) => value.toLowerCase().replace(/^application\//, '');
  return bare(actual) === bare(expected);
}

/** The header checks made before any key is looked at: an assertion in `none` or HMAC never reaches a key. */
export function checkAssertionHeader(header: Readonly<Record<string, unknown>>, expect: AssertionExpectations): void {
  const alg = header.alg;
  if (typeof alg !== 'string' || !acceptedAlgorithms(expect).includes(alg)) {
    throw new AssertionRejected('alg', `alg ${JSON.stringify(alg)} is not accepted`);
  }
  if (expect.typ !== undefined && !typMatches(header.typ, expect.typ)) {
    throw new AssertionRejected('typ', `typ ${JSON.stringify(header.typ)} is not ${expect.typ}`);
  }
}

const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The claim rules, after the signature checked (RFC 7523 3): `aud` names an expected audience,
 * `iss` and `sub` are as expected, `exp` is present and not past, `nbf` and `iat` not in the
 * future, the lifetime short, and a `jti` to make it single use.
 */
export function checkAssertionClaims(claims: Readonly<Record<string, unknown>>, expect: AssertionExpectations, nowEpoch: number): void {
  const tolerance = expect.clockToleranceSeconds ?? defaultAssertionClockToleranceSeconds;
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (!audiences.some((aud) => typeof aud === 'string' && expect.audiences.includes(aud))) {
    throw new AssertionRejected('audience', `aud ${JSON.stringify(claims.aud)} names none of the expected audiences`);
  }
  if (expect.issuer !== undefined && claims.iss !== expect.issuer) throw new AssertionRejected('issuer', 'iss is not the expected issuer');
  if (expect.subject !== undefined && claims.sub !== expect.subject)
    throw new AssertionRejected('subject', 'sub is not the expected subject');
  if (!isNumericDate(claims.exp)) throw new AssertionRejected('expired', 'no exp');
  if (claims.exp <= nowEpoch - tolerance) throw new AssertionRejected('expired', 'exp has passed');
  if (claims.nbf !== undefined && (!isNumericDate(claims.nbf) || claims.nbf > nowEpoch + tolerance)) {
    throw new AssertionRejected('not-yet-valid', 'nbf is in the future');
  }
  if (claims.iat !== undefined && (!isNumericDate(claims.iat) || claims.iat > nowEpoch + tolerance)) {
    throw new AssertionRejected('issued-in-future', 'iat is in the future');
  }
  const lifetime = claims.exp - (isNumericDate(claims.iat) ? claims.iat : nowEpoch);
  if (lifetime > expect.maxLifetimeSeconds) {
    throw new AssertionRejected('lifetime', `lives ${lifetime} s, more than ${expect.maxLifetimeSeconds} s`);
  }
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 256) {
    throw new AssertionRejected('jti', 'no jti, or one longer than 256 characters');
  }
}
