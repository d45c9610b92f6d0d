/**
 * Trusted issuers: the JWT issuers an admin lets this server accept assertions from, per
 * environment, for the JWT-bearer grant (RFC 7523 §2.1) in its two profiles (behaviour TRUST-1).
 * `id-jag`: an enterprise IdP's Identity Assertion JWT Authorization Grant, for a user of the
 * environment; `workload`: a platform's workload identity token (Kubernetes, SPIFFE, a CI system),
 * mapped by `rules` to the scopes and resources it may get.
 */
export type TrustedIssuerProfile = 'id-jag' | 'workload';

/** The profiles, in the order the admin API and the dashboard offer them. */
export const trustedIssuerProfiles = ['id-jag', 'workload'] as const satisfies readonly TrustedIssuerProfile[];

/**
 * One workload rule (behaviour TRUST-6): a token whose `sub` matches `subject` and whose other
 * claims equal `claims` may be given `scopes` for `resources`.
 */
export interface WorkloadRule {
  /**
   * The `sub`, exact, or a pattern (subject-pattern.ts): `*` matches one or more characters other
   * than `/`, `**` one or more of any characters; every other character is itself.
   */
  readonly subject: string;
  /** Other claims, each by equality with a string claim of the token (behaviour TRUST-6). */
  readonly claims?: Readonly<Record<string, string>>;
  readonly scopes: readonly string[];
  /** Absolute URLs (RFC 8707 resource indicators) the token may be for. */
  readonly resources: readonly string[];
}

export interface TrustedIssuer {
  readonly trustedIssuerId: string;
  readonly environmentId: string;
  /** The `iss` of the assertions, exactly as they carry it: an https URL without query or fragment. */
  readonly issuer: string;
  readonly profile: TrustedIssuerProfile;
  /** Exactly one of `jwks` and `jwksUri`: the issuer's public keys, each with a `kid`. */
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  readonly jwksUri?: string;
  readonly description?: string;
  /** id-jag: which claim names the user; default 'sub'. */
  readonly userClaim?: 'sub' | 'email';
  /** id-jag: create an unknown user on first use; default false. */
  readonly createUsers?: boolean;
  /** id-jag: may the grant issue a refresh token; default false. */
  readonly allowRefreshTokens?: boolean;
  /** workload: the rules, tried in order; the first that matches decides (behaviour TRUST-6). */
  readonly rules?: readonly WorkloadRule[];
  readonly createdAt: string;
  readonly updatedAt?: string;
}
