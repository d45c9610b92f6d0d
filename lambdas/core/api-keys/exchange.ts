/**
 * POST /api/token/api-key (spec 4.5): an API key for a one-hour access token. Not an OAuth
 * grant: no refresh token, `sub` = the bound user, `api_key_id` names the key (spec 2.4, 2.6).
 *
 * Success is one write round trip: a transaction that stamps lastUsedAt only while the key
 * is still active, checks that the client still grants every minted scope and that the user
 * exists, and writes the issued-token record and the activity row. The guarantee against a
 * concurrent revocation: no token is returned from an exchange whose write commits after the
 * revocation committed (the JWT signed before the write is discarded unrecorded).
 */
import { TemporarilyUnavailableError } from '../errors';
import type { TokenRequestActivity } from '../grants/activity';
import { tokenResponse, type TokenResponse } from '../grants/response';
import { lifetimes } from '../lifetimes';
import type { ApiKey, Client } from '../model';
import { parseResource } from '../resource';
import { parseScope } from '../scope';
import { mintAccessToken } from '../tokens';
import { authenticateApiKey, invalidApiKey } from './authenticate';
import type { ExchangeDependencies } from './ports';
import { exchangeScopes } from './scopes';
import { keyStatus } from './status';

export interface ApiKeyExchangeRequest {
  /** The presented key: from `Authorization: Bearer`, else the `api_key` body field. */
  readonly apiKey?: string;
  readonly scope?: string;
  readonly resource?: string;
}

async function loadClient(key: ApiKey, fresh: boolean, deps: ExchangeDependencies): Promise<Client> {
  const client = await (fresh ? deps.loadClient : deps.findClient)(key.clientId);
  if (!client) throw invalidApiKey(`client ${key.clientId} of key ${key.keyId} no longer exists`);
  return client;
}

/** Why the key's conditional write failed, read back for the activity log. */
async function keyChangedReason(key: ApiKey, deps: ExchangeDependencies): Promise<string> {
  const again = await deps.store.get(key.keyId);
  if (!again) return `key ${key.keyId} deleted during the exchange`;
  return `key ${key.keyId} ${keyStatus(again, deps.clock.now())} during the exchange`;
}

export async function exchangeApiKey(
  request: ApiKeyExchangeRequest,
  activity: TokenRequestActivity,
  deps: ExchangeDependencies,
): Promise<TokenResponse> {
  activity.requestType = 'api key';
  const key = await authenticateApiKey(request.apiKey, activity, deps);
  const requested = parseScope(request.scope);
  const resource = parseResource(request.resource);
  // A second pass reads the client fresh: the cached record (30 s) was older than the write's check.
  for (const fresh of [false, true]) {
    const client = await loadClient(key, fresh, deps);
    activity.forClient(client);
    const scopes = exchangeScopes(requested, key, client);
    const access = await mintAccessToken(
      { clientId: client.clientId, sub: key.userId, scopes, resource, apiKeyId: key.keyId, lifetime: lifetimes.apiKeyToken },
      deps,
    );
    const outcome = await deps.store.recordExchange(key, {
      usedAt: new Date(deps.clock.now()).toISOString(),
      scopes,
      clientIsTest: client.test,
      issuance: {
        token: { jti: access.jti, clientId: client.clientId, sub: key.userId, apiKeyId: key.keyId, expiresAtEpoch: access.expiresAtEpoch },
        activity: activity.row(true),
      },
    });
    switch (outcome.kind) {
      case 'recorded':
        return tokenResponse(access);
      case 'key-changed':
        throw invalidApiKey(await keyChangedReason(key, deps));
      case 'user-gone':
        throw invalidApiKey(`user ${key.userId} of key ${key.keyId} no longer exists, or is now a test user of a non-test client`);
      case 'contended':
        throw new TemporarilyUnavailableError('The API key is busy; retry shortly.', `key ${key.keyId}: write contended`);
      case 'client-changed':
        continue;
    }
  }
  throw new TemporarilyUnavailableError('The client changed during the exchange; retry shortly.', `client ${key.clientId} changed twice`);
}
