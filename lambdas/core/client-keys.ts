/**
 * The keys a `private_key_jwt` client registers (RFC 7591 2 `jwks` / `jwks_uri`, RFC 7517), checked
 * the same way wherever a client is made: the admin API and dashboard, dynamic registration and
 * metadata documents (behaviour TOKEN-6). Public signing keys only: a private or symmetric key in
 * a set would be a secret stored in the clear.
 */
import { assertionSigningAlgorithms } from './jwt-assertions';
import type { Client } from './model';
import { publicJwksProblem } from './public-jwks';

export const clientKeyLimits = {
  keys: 20,
  /** The stored set travels with the client record, read on every token request. */
  jwksBytes: 16 * 1024,
  jwksUri: 2000,
} as const;

export type ClientKeys = Pick<Client, 'jwks' | 'jwksUri' | 'tokenEndpointAuthSigningAlg'>;

function jwksProblem(jwks: unknown): string | undefined {
  const problem = publicJwksProblem(jwks, { maxKeys: clientKeyLimits.keys, maxBytes: clientKeyLimits.jwksBytes, kidRequired: false });
  return problem && `jwks: ${problem}.`;
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
