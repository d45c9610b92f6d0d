/**
 * The grant types the token endpoint serves (RFC 6749 5.2: any other is `unsupported_grant_type`)
 * and the facts about each that the rest of the server reads: the one list of their names.
 * Discovery (grant_types_supported), the OpenAPI document, the admin API's validation and the
 * activity log's request types read it; dynamic registration names the grants it offers from it.
 * How each grant issues is in its own module, listed by registry.ts against these names; this
 * module imports none of them, so a function that only names grants does not bundle token issuing.
 */
import { UnauthorizedClientError } from '../errors';

export interface GrantTypeFacts<T extends string = string> {
  /**
   * Only for clients that keep a secret (RFC 6749 4.4 for client_credentials): refused to a
   * public client at the token endpoint (behaviour CC-1).
   */
  readonly confidentialOnly: boolean;
  /**
   * Returns the user agent to the client at a registered redirect URI (RFC 6749 3.1.2): a client
   * with such a grant registers at least one, a client without one registers none (behaviour ADMIN-13).
   */
  readonly redirectsToClient: boolean;
  /**
   * Another grant type the client must hold too (behaviour ADMIN-13): refresh tokens come from
   * authorization_code only (RFC 6749 4.4.3: client_credentials issues none).
   */
  readonly requires?: T;
}

/**
 * Keyed by the `grant_type` value (RFC 6749 4.1.3, 4.4.2, 6; an absolute URI for an extension
 * grant, 4.5), in the order discovery and the OpenAPI enum list them.
 */
const facts = {
  authorization_code: { confidentialOnly: false, redirectsToClient: true },
  refresh_token: { confidentialOnly: false, redirectsToClient: false, requires: 'authorization_code' },
  client_credentials: { confidentialOnly: true, redirectsToClient: false },
  // RFC 7523 2.1. With a client (ID-JAG), confidential clients only: the draft's security
  // considerations; a public client takes the code grant. Without one, a workload (behaviour JWTB-1).
  'urn:ietf:params:oauth:grant-type:jwt-bearer': { confidentialOnly: true, redirectsToClient: false },
} as const satisfies Readonly<Record<string, GrantTypeFacts>>;

export type GrantType = keyof typeof facts;

/** The ID-JAG profile of the JWT-bearer grant, as discovery names it (draft-ietf-oauth-identity-assertion-authz-grant, metadata). */
export const idJagGrantProfile = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** The table typed by its own names: a `requires` that names no grant type does not compile. */
export const grantTypeFacts: Readonly<Record<GrantType, GrantTypeFacts<GrantType>>> = facts;

export const grantTypes = Object.keys(facts) as readonly GrantType[];

/** What a public client may use (behaviour CC-1): every grant not confidentialOnly; dynamic registration offers some of these (REG-3). */
export const publicClientGrantTypes: readonly GrantType[] = grantTypes.filter((type) => !grantTypeFacts[type].confidentialOnly);

/** Those that return the user agent to the client: a client registers redirect URIs exactly when it holds one (behaviour ADMIN-13). */
export const redirectingGrantTypes: readonly GrantType[] = grantTypes.filter((type) => grantTypeFacts[type].redirectsToClient);

/** RFC 6749 5.2: a grant type the client did not register is `unauthorized_client`. */
/** `client`: a Client's registered grants and type (spelled here, so that model.ts, which takes GrantType from this list, is not imported back). */
export function assertClientMayUse(
  client: { readonly grantTypes: readonly GrantType[]; readonly type: string },
  grantType: GrantType,
): void {
  if (!client.grantTypes.includes(grantType)) {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} not registered for the client`);
  }
  // RFC 6749 4.4, behaviour CC-1: a grant for clients that can keep a secret, asked for by a public one.
  if (grantTypeFacts[grantType].confidentialOnly && client.type !== 'confidential') {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} for a public client`);
  }
}
