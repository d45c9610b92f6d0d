/**
 * The client-authentication methods of the token, introspection and revocation endpoints
 * (RFC 6749 2.3, behaviour TOKEN-3) and the one fact about each that the rest of the server
 * reads, the client type it authenticates: the one list of their names. Discovery's
 * *_auth_methods_supported, the OpenAPI document and dynamic registration's
 * `token_endpoint_auth_method` read it. How each method reads and checks credentials is in its
 * own module, listed by registry.ts against these names; this module imports none of them, so
 * a function that only names the methods does not bundle the parsers and verifiers.
 */
import type { ClientType } from '../model';

export interface ClientAuthMethodFacts {
  /** The one client type it authenticates: any other presenting it is `invalid_client`. */
  readonly clientType: ClientType;
}

/** Keyed by the registered name (RFC 7591 2 `token_endpoint_auth_method`), in the order discovery lists them. */
export const clientAuthMethodFacts = {
  none: { clientType: 'public' },
  client_secret_basic: { clientType: 'confidential' },
  client_secret_post: { clientType: 'confidential' },
  private_key_jwt: { clientType: 'confidential' },
} as const satisfies Readonly<Record<string, ClientAuthMethodFacts>>;

export type ClientAuthMethodName = keyof typeof clientAuthMethodFacts;

// Pure: every bundle reaching core/registration.ts through the client lookup (wiring/repositories)
// keeps the list only if it reads it.
export const clientAuthMethodNames = /* @__PURE__ */ Object.keys(clientAuthMethodFacts) as readonly ClientAuthMethodName[];

/** The methods of one client type: introspection takes the confidential ones (behaviour INTRO-1), dynamic registration the public ones (REG-3). */
export const clientAuthMethodsFor = (type: ClientType): readonly ClientAuthMethodName[] =>
  clientAuthMethodNames.filter((name) => clientAuthMethodFacts[name].clientType === type);
