/**
 * The key families: which partition keys the IAM grants tell apart (behaviour IAM-1, IAM-2). Read
 * by the CDK stack (lib/storage-grants.ts) and the tests, never by a function's code, so it stays
 * out of the bundles.
 */

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
  /** The signing key set's kids and times, recorded by the rotation job for the dashboard (signing-key-times.ts). */
  signingKeyTimes: inTable('main', 'SIGNINGKEY'),
  /** A trusted issuer: its record by id-jag (per environment) or workload key, and its id's pointer (trusted-issuer-store.ts). */
  trustedIssuer: inTable('main', 'TRUST#*', 'TRUSTWORKLOAD#*', 'TRUSTID#*'),
  // main table, gsi1 lists
  userList: inList('main', 'USERS'),
  environmentList: inList('main', 'ENVS'),
  scopeList: inList('main', 'SCOPES'),
  trustedIssuerList: inList('main', 'TRUSTEDISSUERS'),
  clientList: inList('main', 'CLIENTS#*'),
  apiKeysOfClient: inList('main', 'CLIENT#*#APIKEYS'),
  usersOfEnvironment: inList('main', 'ENV#*#USERS'),
  // ephemeral table
  session: inTable('ephemeral', 'SESSION#*'),
  authorizationRequest: inTable('ephemeral', 'AUTHREQ#*'),
  /** A pushed authorization request (RFC 9126). */
  pushedAuthorizationRequest: inTable('ephemeral', 'PAR#*'),
  /** A secret kept for one showing on a dashboard page (shown-once-store.ts). */
  shownOnce: inTable('ephemeral', 'SHOWNONCE#*'),
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
  /** Used one-time identifiers: DPoP proof and JWT assertion `jti`s (single-use-ids.ts). */
  usedIdentifier: inTable('ephemeral', 'USED#*'),
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
  /** Hourly token counts, rolled up from the token activity rows (token-stats.ts). */
  tokenStats: inTable('activity', 'STATS#*'),
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
