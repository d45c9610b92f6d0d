/**
 * Partition keys: of a user's items in the main table, and of the gsi1 lists; and the sort-key
 * prefixes that pick one kind of entry out of a user's partition. Imported as
 * `import * as partitions from './keys/partitions'`, so a bundle keeps only what it calls.
 */
import type { TokenStatsScope } from '../../../core/admin/token-stats';
import type { AdminAuditEntry } from '../../../core/model';

export const user = (userId: string) => `USER#${userId}`;
/** Sort-key prefix of a user's environment grants within the user's partition. */
export const environmentGrantPrefix = 'ENV#';
/** Sort-key prefix of a user's passkey index entries within the user's partition. */
export const passkeyPrefix = 'PASSKEY#';
/** Sort-key prefix of a user's API key index entries within the user's partition, optionally of one client. */
export const apiKeysOfUserPrefix = (clientId?: string) => (clientId === undefined ? 'APIKEY#' : `APIKEY#${clientId}#`);
export const usersOfEnvironment = (environmentId: string) => `ENV#${environmentId}#USERS`;
export const sessionsOfUser = (userId: string) => `USER#${userId}#SESSIONS`;
export const refreshTokensOfUser = (userId: string) => `USER#${userId}#REFRESH`;
export const familiesOfUser = (userId: string) => `USER#${userId}#FAMILIES`;
export const keysOfClient = (clientId: string) => `CLIENT#${clientId}#APIKEYS`;
export const clients = (registrationType: string) => `CLIENTS#${registrationType}`;
export const users = 'USERS';
export const environments = 'ENVS';
export const scopes = 'SCOPES';
export const trustedIssuers = 'TRUSTEDISSUERS';
/** The gsi1 list of one UTC day's registration counters, which the daily job prunes. */
export const registrationCountersOfDay = (day: string) => `DCRRATE#${day}`;
/** One shard of a client's token activity rows; `unknown` holds the rows of no known client. */
export const activityShard = (clientId: string | undefined, shard: number) =>
  `ACTIVITY#${clientId ?? 'unknown'}#${String(shard).padStart(2, '0')}`;
/** The hourly token counts (core/admin/token-stats.ts) of the whole service, or of one client. */
export const tokenStats = (scope: TokenStatsScope) => (scope.kind === 'service' ? 'STATS#SERVICE' : `STATS#CLIENT#${scope.clientId}`);
/** The service's counters (core/admin/token-stats.ts ServiceCounts): clients, users, API keys without expiry. */
export const serviceCounts = 'STATS#COUNTS';
/** Unrevoked API keys by the UTC day they expire, one item per day (`DAY#<yyyy-mm-dd>`). */
export const apiKeyExpiryCalendar = 'STATS#KEYEXPIRY';
/** The audit partition of what an entry is about: a client, else a user, else the site (environments, scopes, settings). */
export const auditOf = (entry: Pick<AdminAuditEntry, 'clientId' | 'userId'>) =>
  entry.clientId !== undefined ? `AUDIT#${entry.clientId}` : entry.userId !== undefined ? `AUDIT#USER#${entry.userId}` : siteAudit;
/** The audit partition of environments, scopes and the site settings. */
export const siteAudit = 'AUDIT#SITE';
/** The activity table's gsi1 list of one UTC day's audit entries, newest first. */
export const auditDay = (day: string) => `AUDITDAY#${day}`;
