/**
 * Each grant type's implementation, against its name in grant-types.ts: a name without an
 * implementation, or an implementation without a name, does not compile. Only the token
 * endpoint needs these; what only names the grant types reads grant-types.ts.
 */
import { UnsupportedGrantTypeError } from '../errors';
import { authorizationCode } from './authorization-code';
import { clientCredentials } from './client-credentials';
import type { Grant, GrantImplementation } from './grant';
import { grantTypeFacts, grantTypes, type GrantType } from './grant-types';
import { jwtBearer } from './jwt-bearer';
import { refreshToken } from './refresh-token';

const implementations: { readonly [T in GrantType]: GrantImplementation } = {
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
  client_credentials: clientCredentials,
  'urn:ietf:params:oauth:grant-type:jwt-bearer': jwtBearer,
};

/** In grant-types.ts's order. */
export const grants: readonly Grant[] = grantTypes.map((type) => ({ type, ...grantTypeFacts[type], ...implementations[type] }));

export function grantFor(grantType: string): Grant {
  const grant = grants.find((g) => g.type === grantType);
  if (!grant) throw new UnsupportedGrantTypeError('The grant type is not supported.', `grant_type ${grantType.slice(0, 64)}`);
  return grant;
}
