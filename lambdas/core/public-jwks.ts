/**
 * The one rule for a JSON Web Key Set an administrator or a client registers with this server
 * (RFC 7517): a `private_key_jwt` client's keys (behaviour ADMIN-19, REG-11) and a trusted issuer's
 * (TRUST-4). Public signing keys only: a private or symmetric key pasted by mistake would be a
 * secret stored and shown in the clear. Each problem names the key (`keys.<index>`) and is phrased
 * for the person who sent it; the caller puts its field name in front.
 */
import { assertionSigningAlgorithms } from './jwt-assertions';

export interface PublicJwksLimits {
  readonly maxKeys: number;
  /** Of the set's JSON, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** A trusted issuer's keys are picked by `kid`, so each needs one; a client's single key need not. */
  readonly kidRequired: boolean;
}

/** Members only a private or symmetric key has (RFC 7518 6.2.2, 6.3.2, 6.4; RFC 8037 2). */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** The public members each signing key type needs (RFC 7518 6.2.1, 6.3.1; RFC 8037 2). */
const publicMembers: Readonly<Record<string, readonly string[]>> = { EC: ['crv', 'x', 'y'], RSA: ['n', 'e'], OKP: ['crv', 'x'] };

export function publicJwksProblem(jwks: unknown, limits: PublicJwksLimits): string | undefined {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (jwks === null || typeof jwks !== 'object' || !Array.isArray(keys)) return 'must be a JSON Web Key Set, {"keys": [...]}';
  if (keys.length === 0 || keys.length > limits.maxKeys) return `keys: must hold 1 to ${limits.maxKeys} keys`;
  if (Buffer.byteLength(JSON.stringify(jwks), 'utf8') > limits.maxBytes) return `must be at most ${limits.maxBytes / 1024} KiB`;
  const kids = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const problem = keyProblem(key, limits.kidRequired);
    if (problem) return `keys.${index}: ${problem}`;
    const kid = (key as { kid?: string }).kid;
    if (kid !== undefined && kids.has(kid)) return `keys.${index}: kid ${JSON.stringify(kid)} is used by another key`;
    if (kid !== undefined) kids.add(kid);
  }
  return undefined;
}

function keyProblem(key: unknown, kidRequired: boolean): string | undefined {
  if (key === null || typeof key !== 'object' || Array.isArray(key)) return 'is not a JSON object';
  const jwk = key as Record<string, unknown>;
  const secret = privateMembers.filter((member) => Object.hasOwn(jwk, member));
  if (secret.length > 0) return `is a private or symmetric key (it has ${secret.join(', ')}); register the public key only`;
  const needs = typeof jwk.kty === 'string' && Object.hasOwn(publicMembers, jwk.kty) ? publicMembers[jwk.kty] : undefined;
  if (!needs) return `kty must be one of ${Object.keys(publicMembers).join(', ')}`;
  const missing = needs.filter((member) => typeof jwk[member] !== 'string' || jwk[member] === '');
  if (missing.length > 0) return `must have ${missing.join(', ')} (a ${jwk.kty} public key)`;
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'use must be "sig"';
  if (jwk.alg !== undefined && !(assertionSigningAlgorithms as readonly unknown[]).includes(jwk.alg)) {
    return `alg must be one of ${assertionSigningAlgorithms.join(', ')}`;
  }
  const kidOk = typeof jwk.kid === 'string' && jwk.kid.length > 0 && jwk.kid.length <= 200;
  if ((kidRequired || jwk.kid !== undefined) && !kidOk) return 'kid must be a string of 1 to 200 characters';
  return undefined;
}
