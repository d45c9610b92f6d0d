/**
 * What the admin API accepts as a trusted issuer beyond its JSON shape (behaviour TRUST-3..TRUST-5,
 * TRUST-7): each check answers why a value cannot be stored, or undefined. Shared by the admin API
 * and the dashboard through the use cases of lambdas/core/admin/trusted-issuers.ts.
 */
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

/** RFC 7518 §6.2.2, §6.3.2, §6.4, RFC 8037 §2: members only a private or symmetric key has. */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** The public members each key type needs (RFC 7518 §6.2.1, §6.3.1; RFC 8037 §2). */
const publicMembers: Readonly<Record<string, readonly string[]>> = { EC: ['crv', 'x', 'y'], RSA: ['n', 'e'], OKP: ['crv', 'x'] };

/**
 * Behaviour TRUST-4: a set of 1 to 20 public signing keys, each with its own `kid` (the grant
 * picks the key by it), of type EC, RSA or OKP with that type's public members; never a private or
 * symmetric key (a private key pasted by mistake would be stored and shown), never `use` other
 * than `sig`; at most 32 KiB.
 */
export function jwksProblem(jwks: { readonly keys: readonly Record<string, unknown>[] }): string | undefined {
  if (jwks.keys.length === 0 || jwks.keys.length > maxKeys) return `keys: must hold 1 to ${maxKeys} keys`;
  if (Buffer.byteLength(JSON.stringify(jwks), 'utf8') > maxJwksBytes) return `must be at most ${maxJwksBytes / 1024} KiB`;
  const kids = new Set<string>();
  for (const [index, key] of jwks.keys.entries()) {
    const problem = keyProblem(key);
    if (problem) return `keys.${index}: ${problem}`;
    if (kids.has(key.kid as string)) return `keys.${index}: kid ${JSON.stringify(key.kid)} is used by another key`;
    kids.add(key.kid as string);
  }
  return undefined;
}

function keyProblem(key: Record<string, unknown>): string | undefined {
  const secret = privateMembers.filter((member) => Object.hasOwn(key, member));
  if (secret.length > 0) return `must be a public key (it has the private member${secret.length > 1 ? 's' : ''} ${secret.join(', ')})`;
  if (typeof key.kid !== 'string' || key.kid.length === 0 || key.kid.length > 200) return 'kid: must be a string of 1 to 200 characters';
  const needs = typeof key.kty === 'string' && Object.hasOwn(publicMembers, key.kty) ? publicMembers[key.kty] : undefined;
  if (!needs) return 'kty: must be EC, RSA or OKP';
  const missing = needs.filter((member) => typeof key[member] !== 'string' || key[member] === '');
  if (missing.length > 0) return `must have ${missing.join(', ')} (a ${key.kty} public key)`;
  if (key.use !== undefined && key.use !== 'sig') return 'use: must be "sig"';
  if (key.alg !== undefined && (typeof key.alg !== 'string' || key.alg === 'none' || key.alg.startsWith('HS')))
    return 'alg: must be an asymmetric signing algorithm';
  return undefined;
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
