/**
 * The storage keys of every item, in one place (docs/storage-schema.md lists them): each
 * `pk`/`sk` pair and each index partition is spelled here once, so two files can never
 * disagree on where a record lives.
 */
import { createHash } from 'node:crypto';
import type { AdminAuditEntry, ApiKey, Client, Environment, User } from '../../core/model';
import type { ScopeDefinition } from '../../core/ports';

type Key = { readonly pk: string; readonly sk: string };

/** One-time values (codes, refresh tokens, session ids, challenges) are stored only as this digest. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** A sort key that orders a partition by time: ISO times sort as strings, the id tells apart two of one millisecond. */
export const byTime = (at: string, id: string): string => `${at}#${id}`;

/** The key of every kind of item, named as its key family (`keyFamilies` below). */
export const keys = {
  // main table
  client: (clientId: string): Key => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  /**
   * Copy `copy` of a client record (client-copies.ts): copy 0 is the record itself. `COPY<n>#` is one
   * character shorter than `CLIENT#`, so every id whose record key fits DynamoDB's 2,048 bytes has
   * copies that fit too, and no other item's partition key starts with `COPY`.
   */
  clientCopy: (clientId: string, copy: number): Key =>
    copy === 0 ? keys.client(clientId) : { pk: `COPY${copy}#${clientId}`, sk: 'CLIENT' },
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** Email uniqueness: written in the same transaction as its user. */
  email: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  environment: (environmentId: string): Key => ({ pk: `ENV#${environmentId}`, sk: 'ENV' }),
  /** A user's grant of an environment (`users_environments`), in the user's partition. */
  environmentGrant: (userId: string, environmentId: string): Key => ({ pk: `USER#${userId}`, sk: `ENV#${environmentId}` }),
  scope: (name: string): Key => ({ pk: `SCOPE#${name}`, sk: 'SCOPE' }),
  /**
   * The scope catalog's version: a random id every scope deletion replaces, in the deletion's
   * transaction. An admin write granting scopes is conditioned on the version its check read
   * (behaviour ADMIN-18).
   */
  scopeCatalogVersion: (): Key => ({ pk: 'SCOPECATALOG', sk: 'VERSION' }),
  /** A passkey, by the SHA-256 of its credential id (ids are up to 1023 bytes, WebAuthn 5.1). */
  passkey: (credentialDigest: string): Key => ({ pk: `PASSKEY#${credentialDigest}`, sk: 'PASSKEY' }),
  /** The user's index entry of that passkey, in the user's partition. */
  passkeyOfUser: (userId: string, credentialDigest: string): Key => ({ pk: `USER#${userId}`, sk: `PASSKEY#${credentialDigest}` }),
  /** The one site settings record: title, MFA policy, logo. */
  siteSettings: (): Key => ({ pk: 'SITE', sk: 'SETTINGS' }),
  /** An API key record, by key id: the exchange knows nothing else. */
  apiKey: (keyId: string): Key => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' }),
  /** The bound user's index entry of an API key, in the user's partition, ordered per client by creation. */
  apiKeyOfUser: (key: Pick<ApiKey, 'userId' | 'clientId' | 'createdAt' | 'keyId'>): Key => ({
    pk: partitions.user(key.userId),
    sk: `${partitions.apiKeysOfUserPrefix(key.clientId)}${byTime(key.createdAt, key.keyId)}`,
  }),
  // ephemeral table
  session: (sessionId: string): Key => ({ pk: `SESSION#${digest(sessionId)}`, sk: 'SESSION' }),
  authorizationRequest: (requestId: string): Key => ({ pk: `AUTHREQ#${digest(requestId)}`, sk: 'AUTHREQ' }),
  authorizationCode: (code: string): Key => ({ pk: `CODE#${digest(code)}`, sk: 'CODE' }),
  refreshToken: (token: string): Key => ({ pk: `RT#${digest(token)}`, sk: 'RT' }),
  tokenFamily: (familyId: string): Key => ({ pk: `FAMILY#${familyId}`, sk: 'FAMILY' }),
  /** The issued-token record of an access token. */
  tokenRecord: (jti: string): Key => ({ pk: `JTI#${jti}`, sk: 'JTI' }),
  /** A pending sign-in code (second factor), by the digest of the challenge id. */
  signInChallenge: (challengeId: string): Key => ({ pk: `MFA#${digest(challengeId)}`, sk: 'MFA' }),
  /** The user's one email verification code: a new one replaces it. */
  verificationCode: (userId: string): Key => ({ pk: `EMAILVERIFY#${userId}`, sk: 'EMAILVERIFY' }),
  /** A password-reset link, by the digest of its token (the caller digests it). */
  resetLink: (tokenDigest: string): Key => ({ pk: `PWRESET#${tokenDigest}`, sk: 'PWRESET' }),
  /** The user's pointer to their newest reset link: issuing one replaces it, so older links stop working. */
  resetLinkOfUser: (userId: string): Key => ({ pk: `PWRESETUSER#${userId}`, sk: 'PWRESETUSER' }),
  /** The proof a completed reset leaves (behaviour RESET-9), by the digest of its token. */
  recoveryProof: (proofDigest: string): Key => ({ pk: `PWRECOVER#${proofDigest}`, sk: 'PWRECOVER' }),
  /** A WebAuthn ceremony, by the digest of its challenge. */
  passkeyCeremony: (challenge: string): Key => ({ pk: `WEBAUTHN#${digest(challenge)}`, sk: 'WEBAUTHN' }),
  /** The mail send times of one subject (`OTP#<user>`, `EMAILVERIFY#<user>`, `RESET#<address digest>`). */
  sendRate: (subject: string): Key => ({ pk: `SENDRATE#${subject}`, sk: 'SENDRATE' }),
  /** The failed-password slots of one address in one 15-minute window. */
  passwordFailures: (subject: string, window: number): Key => ({ pk: `PWFAIL#${subject}#${window}`, sk: 'PWFAIL' }),
  /** A device cookie's standing, by the digest of its nonce (the cookie value is never stored). */
  device: (nonce: string): Key => ({ pk: `DEVICE#${digest(nonce)}`, sk: 'DEVICE' }),
  /** The registrations of one network on one UTC day (behaviour REG-6). */
  registrationCounter: (day: string, network: string): Key => ({ pk: `DCRRATE#${day}#${network}`, sk: 'DCRRATE' }),
  // activity table
  /** A token activity row, on its shard (activity-shards.ts), ordered by the attempt's start. */
  tokenActivity: (row: { readonly clientId?: string; readonly startedAt: string; readonly attemptId: string }, shard: number): Key => ({
    pk: partitions.activityShard(row.clientId, shard),
    sk: byTime(row.startedAt, row.attemptId),
  }),
  /** An admin audit entry, in the partition of what it is about; `id` is random. */
  auditEntry: (entry: Pick<AdminAuditEntry, 'at' | 'clientId' | 'userId'>, id: string): Key => ({
    pk: partitions.auditOf(entry),
    sk: byTime(entry.at, id),
  }),
};

/** Partition keys: of a user's items in the main table, and of the gsi1 lists. */
export const partitions = {
  user: (userId: string) => `USER#${userId}`,
  /** Sort-key prefix of a user's environment grants within the user's partition. */
  environmentGrantPrefix: 'ENV#',
  /** Sort-key prefix of a user's passkey index entries within the user's partition. */
  passkeyPrefix: 'PASSKEY#',
  /** Sort-key prefix of a user's API key index entries within the user's partition, optionally of one client. */
  apiKeysOfUserPrefix: (clientId?: string) => (clientId === undefined ? 'APIKEY#' : `APIKEY#${clientId}#`),
  usersOfEnvironment: (environmentId: string) => `ENV#${environmentId}#USERS`,
  sessionsOfUser: (userId: string) => `USER#${userId}#SESSIONS`,
  refreshTokensOfUser: (userId: string) => `USER#${userId}#REFRESH`,
  familiesOfUser: (userId: string) => `USER#${userId}#FAMILIES`,
  keysOfClient: (clientId: string) => `CLIENT#${clientId}#APIKEYS`,
  clients: (registrationType: string) => `CLIENTS#${registrationType}`,
  users: 'USERS',
  environments: 'ENVS',
  scopes: 'SCOPES',
  /** The gsi1 list of one UTC day's registration counters, which the daily job prunes. */
  registrationCountersOfDay: (day: string) => `DCRRATE#${day}`,
  /** One shard of a client's token activity rows; `unknown` holds the rows of no known client. */
  activityShard: (clientId: string | undefined, shard: number) => `ACTIVITY#${clientId ?? 'unknown'}#${String(shard).padStart(2, '0')}`,
  /** The audit partition of what an entry is about: a client, else a user, else the site (environments, scopes, settings). */
  auditOf: (entry: Pick<AdminAuditEntry, 'clientId' | 'userId'>) =>
    entry.clientId !== undefined
      ? `AUDIT#${entry.clientId}`
      : entry.userId !== undefined
        ? `AUDIT#USER#${entry.userId}`
        : partitions.siteAudit,
  /** The audit partition of environments, scopes and the site settings. */
  siteAudit: 'AUDIT#SITE',
  /** The activity table's gsi1 list of one UTC day's audit entries, newest first. */
  auditDay: (day: string) => `AUDITDAY#${day}`,
};

/**
 * The stored items of the main table's records: key, index attributes and the record.
 * Repositories and the first-start seed both write through these.
 */
export const mainItems = {
  /**
   * `generation`: random, new with every environment, so one created again under a deleted one's
   * id is told apart from it; a grant holds the generation it was made for (behaviour ENV-4).
   */
  environment: (environment: Environment, generation: string) => ({
    ...keys.environment(environment.id),
    gsi1pk: partitions.environments,
    gsi1sk: environment.id,
    ...environment,
    generation,
  }),
  environmentGrant: (userId: string, environmentId: string, grantedAt: string, generation: string | undefined) => ({
    ...keys.environmentGrant(userId, environmentId),
    gsi1pk: partitions.usersOfEnvironment(environmentId),
    gsi1sk: userId,
    userId,
    environmentId,
    grantedAt,
    ...(generation !== undefined ? { generation } : {}),
  }),
  scope: (scope: ScopeDefinition) => ({ ...keys.scope(scope.name), gsi1pk: partitions.scopes, gsi1sk: scope.name, ...scope }),
  user: (user: User) => ({
    ...keys.user(user.id),
    gsi1pk: partitions.users,
    gsi1sk: byTime(user.createdAt, user.id),
    ...user,
  }),
  email: (email: string, userId: string) => ({ ...keys.email(email), userId }),
  client: (client: Client) => ({
    ...keys.client(client.clientId),
    gsi1pk: partitions.clients(client.registrationType),
    gsi1sk: byTime(client.createdAt, client.clientId),
    ...client,
  }),
};

/** A family of a table's own partition keys. */
const inTable = <T extends KeyFamily['table']>(table: T, ...leadingKeys: string[]) => ({ table, leadingKeys });
/** A family of the partition keys of a table's gsi1 (its lists). */
const inList = <T extends KeyFamily['table']>(table: T, ...leadingKeys: string[]) => ({ table, index: 'gsi1' as const, leadingKeys });

/**
 * Every family of partition keys, with where it lives (a table, or a table's index) and the
 * `dynamodb:LeadingKeys` patterns (IAM `StringLike`: `*` any run, `?` one character) that match
 * its keys and no other family's there. A route row declares its storage access by these names
 * (lambdas/routes.ts `storage`), and the stack grants exactly that (behaviour IAM-1, IAM-2);
 * test/support/record-storage-access.ts checks that every key the code sends matches one family.
 * One partition can hold several kinds of record (a user's record, environment grants, passkey and
 * API-key index entries all live under `USER#<id>`): IAM tells partitions apart, not sort keys.
 */
export const keyFamilies = {
  // main table
  /** A client record and its 7 read copies (client-copies.ts). */
  client: inTable('main', 'CLIENT#*', 'COPY?#*'),
  /** A user's partition: the user, their environment grants, passkey and API-key index entries. */
  user: inTable('main', 'USER#*'),
  email: inTable('main', 'EMAIL#*'),
  environment: inTable('main', 'ENV#*'),
  scope: inTable('main', 'SCOPE#*'),
  scopeCatalogVersion: inTable('main', 'SCOPECATALOG'),
  apiKey: inTable('main', 'APIKEY#*'),
  passkey: inTable('main', 'PASSKEY#*'),
  siteSettings: inTable('main', 'SITE'),
  // main table, gsi1 lists
  userList: inList('main', 'USERS'),
  environmentList: inList('main', 'ENVS'),
  scopeList: inList('main', 'SCOPES'),
  clientList: inList('main', 'CLIENTS#*'),
  apiKeysOfClient: inList('main', 'CLIENT#*#APIKEYS'),
  usersOfEnvironment: inList('main', 'ENV#*#USERS'),
  // ephemeral table
  session: inTable('ephemeral', 'SESSION#*'),
  authorizationRequest: inTable('ephemeral', 'AUTHREQ#*'),
  authorizationCode: inTable('ephemeral', 'CODE#*'),
  refreshToken: inTable('ephemeral', 'RT#*'),
  tokenFamily: inTable('ephemeral', 'FAMILY#*'),
  /** The issued-token record of an access token (by jti). */
  tokenRecord: inTable('ephemeral', 'JTI#*'),
  /** A pending sign-in code (second factor). */
  signInChallenge: inTable('ephemeral', 'MFA#*'),
  verificationCode: inTable('ephemeral', 'EMAILVERIFY#*'),
  resetLink: inTable('ephemeral', 'PWRESET#*'),
  resetLinkOfUser: inTable('ephemeral', 'PWRESETUSER#*'),
  recoveryProof: inTable('ephemeral', 'PWRECOVER#*'),
  /** A WebAuthn ceremony (its challenge). */
  passkeyCeremony: inTable('ephemeral', 'WEBAUTHN#*'),
  /** Mail send counters (sign-in codes, verification codes, reset links). */
  sendRate: inTable('ephemeral', 'SENDRATE#*'),
  passwordFailures: inTable('ephemeral', 'PWFAIL#*'),
  device: inTable('ephemeral', 'DEVICE#*'),
  registrationCounter: inTable('ephemeral', 'DCRRATE#*'),
  // ephemeral table, gsi1 lists
  sessionsOfUser: inList('ephemeral', 'USER#*#SESSIONS'),
  refreshTokensOfUser: inList('ephemeral', 'USER#*#REFRESH'),
  familiesOfUser: inList('ephemeral', 'USER#*#FAMILIES'),
  registrationCountersOfDay: inList('ephemeral', 'DCRRATE#*'),
  // activity table
  /** Token activity rows, sharded. */
  tokenActivity: inTable('activity', 'ACTIVITY#*'),
  /** Admin audit entries: appended, never changed or deleted by a function (behaviour IAM-4). */
  auditEntry: inTable('activity', 'AUDIT#*'),
  auditDay: inList('activity', 'AUDITDAY#*'),
} satisfies Record<string, KeyFamily>;

export interface KeyFamily {
  readonly table: 'main' | 'ephemeral' | 'activity';
  /** The index whose partition key these are; absent: the table's own `pk`. */
  readonly index?: 'gsi1';
  readonly leadingKeys: readonly string[];
}

export type KeyFamilyName = keyof typeof keyFamilies;

/** Whether `key` matches an IAM `StringLike` pattern (`*` any run of characters, `?` exactly one). */
export function matchesLeadingKey(pattern: string, key: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 's').test(key);
}
