/**
 * Authenticating a presented API key (behaviour KEYX-3). Malformed, unknown, revoked, expired
 * and wrong-secret keys all fail with the same InvalidClientError (same status, body and
 * headers), and each failure spends exactly one Argon2id verification, real or dummy, so
 * the response time does not tell an unknown key id from a known one either. The real
 * reason goes to the activity log only.
 */
import { requiredEnvironment } from '../authorization-code';
import { InvalidClientError } from '../errors';
import type { TokenRequestActivity } from '../grants/activity';
import type { ApiKey } from '../model';
import { parseApiKey } from './format';
import type { ExchangeDependencies, KeyParties } from './ports';
import { keyStatus } from './status';

export function invalidApiKey(reason: string): InvalidClientError {
  // RFC 7235 3.1: a 401 carries a challenge; the key is presented as a bearer credential.
  return new InvalidClientError('The API key is invalid.', reason, { headers: { 'WWW-Authenticate': 'Bearer realm="api-key"' } });
}

type Deps = Pick<ExchangeDependencies, 'store' | 'hasher' | 'secretCache' | 'clock' | 'dcrEnvironmentId'>;

/** An active key whose secret matched, with its client and user as read for this exchange. */
export interface AuthenticatedKey {
  readonly key: ApiKey;
  readonly parties: KeyParties;
}

/** The active key the presented key opens, with its parties; throws invalidApiKey otherwise. */
export async function authenticateApiKey(
  presented: string | undefined,
  activity: TokenRequestActivity,
  deps: Deps,
): Promise<AuthenticatedKey> {
  const parsed = parseApiKey(presented);
  if (!parsed) {
    await deps.hasher.verifyDummy(presented ?? '');
    throw invalidApiKey(presented ? 'malformed API key' : 'no API key presented');
  }
  activity.forKey(parsed.keyId);
  // The cache holds the stored hash a presented key last verified against (keyed by a
  // SHA-256 of the whole key) and the key's client and user, which never change: a repeat
  // exchange skips Argon2id and reads all three records in one round trip. The key record
  // is read every time, so revocation and expiry apply on the very next exchange.
  const cached = deps.secretCache.recall(presented!);
  const read = await deps.store.readForExchange(parsed.keyId, cached?.binding);
  const key = read.key;
  if (!key) {
    if (cached) deps.secretCache.forget(presented!);
    await deps.hasher.verifyDummy(parsed.secret);
    throw invalidApiKey(`unknown key id ${parsed.keyId}`);
  }
  activity.forClientId(key.clientId);
  activity.forUser(key.userId);
  // A key never changes its hash, client or user; checking all three keeps a mismatch (an id
  // reused after deletion, say) from ever pairing this key with another key's parties.
  const fromCache =
    cached !== undefined &&
    cached.storedHash === key.secretHash &&
    cached.binding.clientId === key.clientId &&
    cached.binding.userId === key.userId;
  if (!fromCache) {
    if (cached) deps.secretCache.forget(presented!);
    if (!(await deps.hasher.verify(key.secretHash, parsed.secret))) throw invalidApiKey(`wrong secret for key ${key.keyId}`);
    deps.secretCache.remember(presented!, key.secretHash, { clientId: key.clientId, userId: key.userId });
  }
  const status = keyStatus(key, deps.clock.now());
  if (status !== 'active') {
    // Keep the failure as slow as the others even when the cache spared the verification.
    if (fromCache) await deps.hasher.verifyDummy(parsed.secret);
    throw invalidApiKey(
      status === 'revoked' ? `key ${key.keyId} revoked at ${key.revokedAt}` : `key ${key.keyId} expired at ${key.expiresAt}`,
    );
  }
  // A first exchange reads the parties only once the secret matched, so every failure above
  // costs the same: one read and one verification.
  const parties = fromCache && read.parties ? read.parties : await deps.store.readParties(key);
  return { key, parties: await withEnvironment(presented!, key, parties, deps) };
}

/**
 * Behaviour ENV-2 asks that access be re-checked on every rotation; a key is the same kind of
 * long-lived credential, so every exchange re-checks the user's grant of the client's
 * environment. A repeat exchange read it with the key (its environment is remembered in the
 * binding); a first one, or one whose client now answers to another environment, reads it here.
 */
async function withEnvironment(presented: string, key: ApiKey, parties: KeyParties, deps: Deps): Promise<KeyParties> {
  if (!parties.client) return parties;
  const environmentId = requiredEnvironment(parties.client, deps.dcrEnvironmentId);
  if (parties.environment?.id === environmentId) return parties;
  const binding = { clientId: key.clientId, userId: key.userId, environmentId };
  const reread = await deps.store.readParties(binding);
  deps.secretCache.remember(presented, key.secretHash, binding);
  return reread;
}
