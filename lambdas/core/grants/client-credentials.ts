/**
 * The client_credentials grant (RFC 6749 4.4): confidential clients only (checked by
 * assertClientMayUse), scopes within the client's, an optional resource as `aud`, no
 * `sub` (behaviour CC-2) and no refresh token (RFC 6749 4.4.3). Nothing is consumed, so the
 * token record and the activity row go in one batch write.
 */
import * as z from 'zod/mini';
import type { ProvenKey } from '../dpop';
import type { Client } from '../model';
import { parseResource } from '../resource';
import { narrowScopes, parseScope } from '../scope';
import { mintAccessToken } from '../tokens';
import type { TokenRequestActivity } from './activity';
import { formField, type GrantDependencies, type GrantImplementation } from './grant';
import { tokenResponse, type TokenResponse } from './response';

export interface ClientCredentialsRequest {
  readonly scope?: string;
  readonly resource?: string;
}

export async function clientCredentialsGrant(
  client: Client,
  request: ClientCredentialsRequest,
  activity: TokenRequestActivity,
  deps: Pick<GrantDependencies, 'store' | 'issuer' | 'signer' | 'clock' | 'random'>,
  proven?: ProvenKey,
): Promise<TokenResponse> {
  const scopes = narrowScopes(parseScope(request.scope), client.scopes, 'granted to the client');
  const resource = parseResource(request.resource);
  const access = await mintAccessToken({ clientId: client.clientId, scopes, resource, jkt: proven?.jkt }, deps);
  await deps.store.recordIssued({
    token: { jti: access.jti, clientId: client.clientId, expiresAtEpoch: access.expiresAtEpoch },
    activity: activity.row(true),
  });
  return tokenResponse(access);
}

/** RFC 6749 4.4.2, RFC 8707 2. */
const parameters = z.object({ scope: formField.optional(2048), resource: formField.optional(2048) });

export const clientCredentials: GrantImplementation<typeof parameters> = {
  parameters,
  issue: (client, p, activity, deps, proven) => clientCredentialsGrant(client, p, activity, deps, proven),
};
