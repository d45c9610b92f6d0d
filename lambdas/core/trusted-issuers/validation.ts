/**
 * What the admin API accepts as a trusted issuer beyond its JSON shape (behaviour TRUST-3..TRUST-5,
 * TRUST-7): each check answers why a value cannot be stored, or undefined. Shared by the admin API
 * and the dashboard through the use cases of lambdas/core/admin/trusted-issuers.ts.
 */
import { publicJwksProblem } from '../public-jwks';
import { isSubjectPattern } from './subject-pattern';

export const maxUrlLength = 2000;
/** Keys per set: enough for a rotation of several algorithms; an IdP publishes a handful. */
export const maxKeys = 20;
/** The stored set's JSON: 20 RSA-4096 keys with certificate chains stay under it. */
export const maxJwksBytes = 32 * 1024;
export const maxRules = 50;
export const maxRuleClaims = 20;

/**
 * Behaviour TRUST-3: an issuer identifier is an https URL with no query or fragment (RFC 8414 §2,
 * RFC 7519 §4.1.1 as the assertion carries it); stored and compared as given, never normalised.
 */
export function issuerProblem(issuer: string): string | undefined {
  return httpsUrlProblem(issuer, { query: false });
}

/** Behaviour TRUST-4: a `jwks_uri` is an https URL without a fragment (it is fetched, RFC 8414 §2). */
export function jwksUriProblem(uri: string): string | undefined {
  return httpsUrlProblem(uri, { query: true });
}

function httpsUrlProblem(value: string, allow: { readonly query: boolean }): string | undefined {
  if (value.length === 0 || value.length > maxUrlLength) return `must have 1 to ${maxUrlLength} characters`;
  if (/\s/.test(value)) return 'must not contain whitespace';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain user information';
  if (value.includes('#')) return 'must not contain a fragment';
  if (!allow.query && value.includes('?')) return 'must not contain a query';
  return undefined;
}

/**
 * Behaviour TRUST-4: a set of 1 to 20 public signing keys, each with its own `kid` (the grant
 * picks the key by it), at most 32 KiB (core/public-jwks.ts).
 */
export function jwksProblem(jwks: { readonly keys: readonly Record<string, unknown>[] }): string | undefined {
  return publicJwksProblem(jwks, { maxKeys, maxBytes: maxJwksBytes, kidRequired: true });
}

/** Registered claims the grant checks itself (RFC 7519 §4.1); a rule matching on them would mean nothing. */
const claimsTheGrantChecks = new Set(['sub', 'iss', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/**
 * Behaviour TRUST-6: a rule's subject pattern and claims; its resources are absolute URIs without
 * a fragment (RFC 8707 §2: they become the token's `aud` verbatim). Its scopes are checked
 * against the catalog by the use case.
 */
export function ruleProblem(rule: {
  readonly subject: string;
  readonly claims?: Readonly<Record<string, string>>;
  readonly resources: readonly string[];
}): string | undefined {
  if (!isSubjectPattern(rule.subject)) return 'subject: must have 1 to 512 characters, with no more than two * in a row';
  const names = Object.keys(rule.claims ?? {});
  if (names.length > maxRuleClaims) return `claims: at most ${maxRuleClaims}`;
  const checked = names.find((name) => claimsTheGrantChecks.has(name));
  if (checked) return `claims.${checked}: is checked by the grant itself (the subject is matched by "subject")`;
  for (const [index, resource] of rule.resources.entries()) {
    const problem = resourceProblem(resource);
    if (problem) return `resources.${index}: ${problem}`;
  }
  return undefined;
}

function resourceProblem(resource: string): string | undefined {
  if (resource.length === 0 || resource.length > maxUrlLength) return `must have 1 to ${maxUrlLength} characters`;
  try {
    new URL(resource);
  } catch {
    return 'must be an absolute URI';
  }
  return resource.includes('#') ? 'must not contain a fragment' : undefined;
}
