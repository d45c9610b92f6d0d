/** RFC 6749 5.2: an unknown grant is `unsupported_grant_type`; one the client may not use is `unauthorized_client`. */
import { UnauthorizedClientError, UnsupportedGrantTypeError } from '../errors';
import type { Client, GrantType } from '../model';

const supported: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];

export function parseGrantType(value: string): GrantType {
  const grantType = supported.find((g) => g === value);
  if (!grantType) throw new UnsupportedGrantTypeError('The grant type is not supported.', `grant_type ${value.slice(0, 64)}`);
  return grantType;
}

export function assertClientMayUse(client: Pick<Client, 'grantTypes' | 'type'>, grantType: GrantType): void {
  if (!client.grantTypes.includes(grantType)) {
    throw new UnauthorizedClientError('The client may not use this grant type.', `${grantType} not registered for the client`);
  }
  // RFC 6749 4.4: client_credentials only for clients that can keep a secret.
  if (grantType === 'client_credentials' && client.type !== 'confidential') {
    throw new UnauthorizedClientError('The client may not use this grant type.', 'client_credentials for a public client');
  }
}
