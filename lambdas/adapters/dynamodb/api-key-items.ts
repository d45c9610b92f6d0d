/**
 * API key items (docs/storage-schema.md). The key record lives in the main table under its
 * key id (the exchange knows nothing else), listed per client through gsi1; a small index
 * item in the bound user's partition lists a user's keys (self-service) and finds them
 * when the user is deleted. Audit entries go to the activity table (audit-log.ts).
 */
import { lifetimes } from '../../core/lifetimes';
import type { ApiKey } from '../../core/model';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { byTime } from './keys/key-parts';

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Retention: a key ends when it expires or is revoked, whichever is first; TTL removes it
 * `apiKeyRetention` (400 days) later, after every audit and activity row naming it is gone.
 * An active key without expiry has no TTL.
 */
export function apiKeyTtl(key: Pick<ApiKey, 'expiresAt' | 'revokedAt'>): number | undefined {
  const ends = [key.expiresAt, key.revokedAt].filter((t): t is string => t !== undefined).map(epoch);
  return ends.length > 0 ? Math.min(...ends) + lifetimes.apiKeyRetention : undefined;
}

export function apiKeyItem(key: ApiKey) {
  const ttl = apiKeyTtl(key);
  return {
    ...keys.apiKey(key.keyId),
    gsi1pk: partitions.keysOfClient(key.clientId),
    gsi1sk: byTime(key.createdAt, key.keyId),
    ...key,
    ...(ttl !== undefined ? { ttl } : {}),
  };
}

export function userKeyIndexItem(key: ApiKey) {
  const ttl = apiKeyTtl(key);
  return { ...keys.apiKeyOfUser(key), clientId: key.clientId, keyId: key.keyId, ...(ttl !== undefined ? { ttl } : {}) };
}

/**
 * Behaviour KEY-15: a new key's first state, which it leaves only by its activation. A pending
 * record is absent to every reader (the exchange, the lists, revocation); TTL removes one
 * whose create never finished.
 */
export function pendingKeyItems(key: ApiKey) {
  const ttl = epoch(key.createdAt) + lifetimes.pendingApiKey;
  return { record: { ...apiKeyItem(key), pending: true, ttl }, index: { ...userKeyIndexItem(key), ttl } };
}

/** Whether a stored key record is still pending (written, never activated). */
export const isPending = (item: Record<string, unknown>): boolean => item.pending !== undefined;
