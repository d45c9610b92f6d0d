/** The grant types the token endpoint serves (RFC 6749 5.2: any other is `unsupported_grant_type`). */
import { UnauthorizedClientError, UnsupportedGrantTypeError } from '../errors';
import type { Client, GrantType } from '../model';
import { authorizationCode } from './authorization-code';
import { clientCredentials } from './client-credentials';
import type { Grant } from './grant';
import { refreshToken } from './refresh-token';

export const grants: readonly Grant[] = [authorizationCode, refreshToken, clientCredentials];

export function grantFor(grantType: string): Grant {
  const grant = grants.find((g) => g.type === grantType);
  if (!grant) throw new UnsupportedGrantTypeError('The grant type is not supported.', `grant_type ${grantType.slice(0, 64)}`);
  return grant;
}

/** RFC 6749 5.2: a grant type the client did not register is `unauthorized_client`. */
export function assertClientMayUse(client: Pick<Client, 'grantTypes' | 'type'>, grantType: GrantType): void {
  if (!client.grantTypes.includes(grantType)) {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} not registered for the client`);
  }
  // RFC 6749 4.4: client_credentials only for clients that can keep a secret.
  if (grantType === 'client_credentials' && client.type !== 'confidential') {
    throw new UnauthorizedClientError('The client may not use this grant type.', 'client_credentials for a public client');
  }
}
