/**
 * The grant types the token endpoint serves (RFC 6749 5.2: any other is `unsupported_grant_type`):
 * the one list of them. Discovery (grant_types_supported), the OpenAPI document, the admin API's
 * validation and the activity log's request types read it; dynamic registration names the grants
 * it offers, all of them here.
 */
import { UnauthorizedClientError, UnsupportedGrantTypeError } from '../errors';
import type { Client } from '../model';
import { authorizationCode } from './authorization-code';
import { clientCredentials } from './client-credentials';
import type { Grant } from './grant';
import { refreshToken } from './refresh-token';

export const grants = [authorizationCode, refreshToken, clientCredentials] as const;

export type GrantType = (typeof grants)[number]['type'];

/** In the registry's order (discovery and the OpenAPI enum list them so). */
export const grantTypes: readonly GrantType[] = grants.map((grant) => grant.type);

/** What a public client may use (behaviour CC-1): every grant not confidentialOnly; dynamic registration offers some of these (REG-3). */
export const publicClientGrantTypes: readonly GrantType[] = grants.filter((grant) => !grant.confidentialOnly).map((grant) => grant.type);

export function grantFor(grantType: string): Grant<Grant['parameters'], GrantType> {
  const grant = grants.find((g) => g.type === grantType);
  if (!grant) throw new UnsupportedGrantTypeError('The grant type is not supported.', `grant_type ${grantType.slice(0, 64)}`);
  return grant;
}

/** RFC 6749 5.2: a grant type the client did not register is `unauthorized_client`. */
export function assertClientMayUse(client: Pick<Client, 'grantTypes' | 'type'>, grantType: GrantType): void {
  if (!client.grantTypes.includes(grantType)) {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} not registered for the client`);
  }
  // RFC 6749 4.4, behaviour CC-1: a grant for clients that can keep a secret, asked for by a public one.
  if (!publicClientGrantTypes.includes(grantType) && client.type !== 'confidential') {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} for a public client`);
  }
}
