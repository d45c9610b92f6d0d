/**
 * POST /api/token/api-key (behaviour KEYX-1): an API key for a one-hour access token. Not an OAuth
 * grant: no refresh token, `sub` = the bound user, `api_key_id` names the key (behaviour KEYX-6, CLAIM-1).
 *
 * Every check is made on records read in this exchange, strongly consistent: the key
 * (active, secret), its client (exists, still grants each minted scope) and its user (exists,
 * still holds the client's environment, not a test user of a non-test client). A revocation, an ungrant or a user deletion that
 * committed before that read is therefore seen: "effective on the next exchange" (behaviour KEY-8).
 * An exchange that read the key before a revocation committed may still return its token,
 * exactly like one that finished a moment earlier; both stay valid for their hour, and both
 * are recorded with their api_key_id.
 *
 * A success then writes as client_credentials does: the token record and the activity row in
 * one batch, and, when the second changed, lastUsedAt beside it. A repeat exchange is thus two
 * round trips (one read of three records, one batch) and two writes, no transaction; see
 * docs/storage-schema.md for what that costs and why it suffices.
 */
import { lacksRequiredFactor } from '../account/second-factor';
import { InvalidClientError } from '../errors';
import type { TokenRequestActivity } from '../grants/activity';
import { tokenResponse, type TokenResponse } from '../grants/response';
import { lifetimes } from '../lifetimes';
import { isUsersOwnKey, type ApiKey, type Client, type User } from '../model';
import { parseResource } from '../resource';
import { parseScope, withCatalogScopes } from '../scope';
import { mintAccessToken } from '../tokens';
import { authenticateApiKey, invalidApiKey } from './authenticate';
import type { ExchangeDependencies, KeyParties } from './ports';
import { exchangeScopes } from './scopes';

export interface ApiKeyExchangeRequest {
  /** The presented key: from `Authorization: Bearer`, else the `api_key` body field. */
  readonly apiKey?: string;
  readonly scope?: string;
  readonly resource?: string;
}

/**
 * lastUsedAt is kept to the second (behaviour KEYX-7 "stamped on each successful exchange"): every
 * success leaves the second it happened in, and a write that would store the value already
 * there is skipped, so a busy key costs one stamp per second, not one per exchange.
 */
export function usedAtSecond(nowMs: number): string {
  return new Date(Math.floor(nowMs / 1000) * 1000).toISOString();
}

function requireParties(key: ApiKey, { client, user, environment }: KeyParties): { client: Client; user: User } {
  const keyId = key.keyId;
  if (!client) throw invalidApiKey(`the client of key ${keyId} no longer exists`);
  // Self-service keys exist only for clients an administrator created (behaviour KEYM-2). One
  // made for a self-registered client before that rule (a consent turned into a lasting key)
  // mints nothing.
  if (key.createdBy.kind === 'user' && client.registrationType !== 'static') {
    throw invalidApiKey(`key ${keyId} was self-served for client ${client.clientId}, which registered itself`);
  }
  if (!user) throw invalidApiKey(`the user of key ${keyId} no longer exists`);
  // Behaviour KEY-17, RESET-13: the owner ended every self-service key after a password reset;
  // the generation moved in the step's first write, before each key's revocation is stored.
  if (isUsersOwnKey(key) && (key.generation ?? 0) !== (user.apiKeyGeneration ?? 0))
    throw invalidApiKey(`key ${keyId} was self-served before its user revoked every self-service key after a password reset`);
  if (!environment?.granted) throw invalidApiKey(`the user of key ${keyId} no longer holds environment ${environment?.id ?? '(unknown)'}`);
  // Behaviour KEY-3: a test user may be bound only to a test client, also when flagged after the key was issued.
  if (user.test && !client.test)
    throw invalidApiKey(`the user of key ${keyId} is now a test user, and client ${client.clientId} is not a test client`);
  return { client, user };
}

/**
 * Behaviour MFA-12: a self-service key stands for the sign-in that created it. While the MFA policy
 * asks its user for a second factor that sign-in lacked, it mints nothing; it is not revoked (a
 * loosened policy lets it work again, as REFRESH-6 does for refresh tokens). Only the holder of
 * the whole key reaches this check (the secret matched), so the answer says what to do.
 */
async function requireFactorOfPolicy(key: ApiKey, user: User, deps: ExchangeDependencies): Promise<void> {
  if (!isUsersOwnKey(key)) return;
  if (await lacksRequiredFactor(user, key.amr, deps.mfaPolicy)) {
    throw new InvalidClientError(
      'This API key was created from a sign-in without the second factor the MFA policy now requires. Sign in with the emailed code (or a passkey) and create a new key.',
      `self-service key ${key.keyId} created with amr ${(key.amr ?? ['none']).join(' ')}; the mfa policy now requires a second factor`,
      { headers: { 'WWW-Authenticate': 'Bearer realm="api-key"' } },
    );
  }
}

export async function exchangeApiKey(
  request: ApiKeyExchangeRequest,
  activity: TokenRequestActivity,
  deps: ExchangeDependencies,
): Promise<TokenResponse> {
  activity.ofType('api key');
  const { key, parties } = await authenticateApiKey(request.apiKey, activity, deps);
  if (parties.client) activity.forClient(parties.client);
  const requested = parseScope(request.scope);
  const resource = parseResource(request.resource);
  const { client, user } = requireParties(key, parties);
  await requireFactorOfPolicy(key, user, deps);
  // Behaviour KEY-12: intersected with the client's scopes as read now, so a removal whose
  // per-key clean-up has not reached this key yet still never mints the scope.
  // And with the catalog: a scope deleted from it is minted by no key (behaviour ADMIN-18).
  const scopes = exchangeScopes(requested, key, await withCatalogScopes(client, deps.catalogNames));
  const access = await mintAccessToken(
    { clientId: client.clientId, sub: key.userId, scopes, resource, apiKeyId: key.keyId, lifetime: lifetimes.apiKeyToken },
    deps,
  );
  const usedAt = usedAtSecond(deps.clock.now());
  const issuance = {
    token: { jti: access.jti, clientId: client.clientId, sub: key.userId, apiKeyId: key.keyId, expiresAtEpoch: access.expiresAtEpoch },
    activity: activity.row(true),
  };
  const stale = key.lastUsedAt === undefined || key.lastUsedAt < usedAt;
  const [recorded, stamped] = await Promise.allSettled([
    deps.recordIssued(issuance),
    stale ? deps.store.stampLastUsed(key.keyId, usedAt) : undefined,
  ]);
  if (recorded.status === 'rejected') throw recorded.reason;
  // The token is recorded and its success row written: failing the request now would leave a
  // recorded token nobody holds and a second, failed row for the same attempt. A missed stamp
  // is one second stale at worst once the next exchange lands; say so loudly instead.
  if (stamped.status === 'rejected')
    deps.log.error('lastUsedAt stamp failed after retries', { apiKeyId: key.keyId, usedAt, error: String(stamped.reason) });
  return tokenResponse(access);
}
