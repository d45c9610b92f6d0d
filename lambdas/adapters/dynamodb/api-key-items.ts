/**
 * API key items (docs/storage-schema.md). The key record lives in the main table under its
 * key id (the exchange knows nothing else), listed per client through gsi1; a small index
 * item in the bound user's partition lists a user's keys (self-service) and finds them
 * when the user is deleted. Audit entries go to the activity table.
 */
import { lifetimes } from '../../core/lifetimes';
import type { ApiKey, AuditEntry } from '../../core/model';
import { auditLogItem } from './audit-log';
import { partitions } from './keys';

export const apiKeyKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
export const clientKeysPartition = partitions.keysOfClient;
/** Sort-key prefix of a user's keys, optionally of one client. */
export const userKeysPrefix = (clientId?: string) => (clientId === undefined ? 'APIKEY#' : `APIKEY#${clientId}#`);
export const userKeyIndexKey = (key: Pick<ApiKey, 'userId' | 'clientId' | 'createdAt' | 'keyId'>) => ({
  pk: partitions.user(key.userId),
  sk: `${userKeysPrefix(key.clientId)}${key.createdAt}#${key.keyId}`,
});

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
    ...apiKeyKey(key.keyId),
    gsi1pk: clientKeysPartition(key.clientId),
    gsi1sk: `${key.createdAt}#${key.keyId}`,
    ...key,
    ...(ttl !== undefined ? { ttl } : {}),
  };
}

export function userKeyIndexItem(key: ApiKey) {
  const ttl = apiKeyTtl(key);
  return { ...userKeyIndexKey(key), clientId: key.clientId, keyId: key.keyId, ...(ttl !== undefined ? { ttl } : {}) };
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

/** Admin audit entries, partitioned per client like the activity rows, and in the day index (audit-log.ts). */
export function auditItem(entry: AuditEntry, id: string) {
  return auditLogItem(entry, id);
}
