/**
 * The keys a `private_key_jwt` client registers (RFC 7591 2 `jwks` / `jwks_uri`, RFC 7517), checked
 * the same way wherever a client is made: the admin API and dashboard, dynamic registration and
 * metadata documents (behaviour TOKEN-6). Public signing keys only: a private or symmetric key in
 * a set would be a secret stored in the clear.
 */
import { assertionSigningAlgorithms } from './jwt-assertions';
import type { Client } from './model';

export const clientKeyLimits = {
  keys: 20,
  /** The stored set travels with the client record, read on every token request. */
  jwksBytes: 16 * 1024,
  jwksUri: 2000,
} as const;

export type ClientKeys = Pick<Client, 'jwks' | 'jwksUri' | 'tokenEndpointAuthSigningAlg'>;

/** Members only a private or symmetric JWK has (RFC 7518 6.2.2, 6.3.2, 6.4, RFC 8037 2). */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const signingKeyTypes = ['RSA', 'EC', 'OKP'];

function keyProblem(key: unknown): string | undefined {
  if (key === null || typeof key !== 'object' || Array.isArray(key)) return 'is not a JSON object';
  const jwk = key as Record<string, unknown>;
  if (typeof jwk.kty !== 'string' || !signingKeyTypes.includes(jwk.kty)) return `kty must be one of ${signingKeyTypes.join(', ')}`;
  if (privateMembers.some((member) => member in jwk)) return 'is a private or symmetric key; register the public key only';
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'use must be "sig"';
  if (jwk.alg !== undefined && !(assertionSigningAlgorithms as readonly unknown[]).includes(jwk.alg)) {
    return `alg must be one of ${assertionSigningAlgorithms.join(', ')}`;
  }
  if (jwk.kid !== undefined && typeof jwk.kid !== 'string') return 'kid must be a string';
  return undefined;
}

function jwksProblem(jwks: unknown): string | undefined {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (jwks === null || typeof jwks !== 'object' || !Array.isArray(keys)) return 'jwks: must be a JSON Web Key Set, {"keys": [...]}.';
  if (keys.length === 0 || keys.length > clientKeyLimits.keys) return `jwks: must hold 1 to ${clientKeyLimits.keys} keys.`;
  if (JSON.stringify(jwks).length > clientKeyLimits.jwksBytes) return `jwks: must be at most ${clientKeyLimits.jwksBytes} bytes.`;
  for (const [index, key] of keys.entries()) {
    const problem = keyProblem(key);
    if (problem) return `jwks.keys.${index}: ${problem}.`;
  }
  return undefined;
}

function jwksUriProblem(uri: unknown, allowLoopbackHttp: boolean): string | undefined {
  if (typeof uri !== 'string' || uri.length > clientKeyLimits.jwksUri)
    return `jwks_uri: must be a URL of at most ${clientKeyLimits.jwksUri} characters.`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'jwks_uri: must be an absolute URL.';
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && url.protocol === 'http:' && loopback)) return 'jwks_uri: must be an https URL.';
  if (url.username || url.password || url.hash) return 'jwks_uri: must have no credentials and no fragment.';
  return undefined;
}

export interface ClientKeysInput {
  readonly jwks?: unknown;
  readonly jwksUri?: unknown;
  readonly signingAlg?: unknown;
}

/**
 * The keys as the client record holds them, or the problem with them (naming the field). Exactly
 * one of `jwks` and `jwks_uri`; `allowLoopbackHttp` lets the local server's jwks_uri be plain http
 * on loopback, as its metadata documents are.
 */
export function checkClientKeys(input: ClientKeysInput, allowLoopbackHttp = false): { keys: ClientKeys } | { problem: string } {
  const hasJwks = input.jwks !== undefined;
  const hasUri = input.jwksUri !== undefined;
  if (hasJwks === hasUri) return { problem: 'jwks, jwks_uri: a private_key_jwt client registers exactly one of them.' };
  const problem = hasJwks ? jwksProblem(input.jwks) : jwksUriProblem(input.jwksUri, allowLoopbackHttp);
  if (problem) return { problem };
  if (input.signingAlg !== undefined && !(assertionSigningAlgorithms as readonly unknown[]).includes(input.signingAlg)) {
    return { problem: `token_endpoint_auth_signing_alg: must be one of ${assertionSigningAlgorithms.join(', ')}.` };
  }
  return {
    keys: {
      ...(hasJwks
        ? { jwks: { keys: [...(input.jwks as { keys: Record<string, unknown>[] }).keys] } }
        : { jwksUri: input.jwksUri as string }),
      ...(input.signingAlg !== undefined ? { tokenEndpointAuthSigningAlg: input.signingAlg as string } : {}),
    },
  };
}
