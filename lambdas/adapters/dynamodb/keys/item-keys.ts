/**
 * The `pk`/`sk` of every kind of item, each spelled here once (docs/storage-schema.md lists them),
 * so two files can never disagree on where a record lives. A builder's name is its key family's
 * (families.ts). One export per builder, imported as `import * as keys from './keys/item-keys'`:
 * esbuild then bundles only the builders a function calls.
 */
import type { AdminAuditEntry, ApiKey } from '../../../core/model';
import { byTime, digest } from './key-parts';
import * as partitions from './partitions';

type Key = { readonly pk: string; readonly sk: string };

// main table
export const client = (clientId: string): Key => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' });
/**
 * Copy `copy` of a client record (client-copies.ts): copy 0 is the record itself. `COPY<n>#` is one
 * character shorter than `CLIENT#`, so every id whose record key fits DynamoDB's 2,048 bytes has
 * copies that fit too, and no other item's partition key starts with `COPY`.
 */
export const clientCopy = (clientId: string, copy: number): Key =>
  copy === 0 ? client(clientId) : { pk: `COPY${copy}#${clientId}`, sk: 'CLIENT' };
export const user = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' });
/** Email uniqueness: written in the same transaction as its user. */
export const email = (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' });
export const environment = (environmentId: string): Key => ({ pk: `ENV#${environmentId}`, sk: 'ENV' });
/** A user's grant of an environment (`users_environments`), in the user's partition. */
export const environmentGrant = (userId: string, environmentId: string): Key => ({ pk: `USER#${userId}`, sk: `ENV#${environmentId}` });
export const scope = (name: string): Key => ({ pk: `SCOPE#${name}`, sk: 'SCOPE' });
/**
 * The scope catalog's version: a random id every scope deletion replaces, in the deletion's
 * transaction. An admin write granting scopes is conditioned on the version its check read
 * (behaviour ADMIN-18).
 */
export const scopeCatalogVersion = (): Key => ({ pk: 'SCOPECATALOG', sk: 'VERSION' });
/** A passkey, by the SHA-256 of its credential id (ids are up to 1023 bytes, WebAuthn 5.1). */
export const passkey = (credentialDigest: string): Key => ({ pk: `PASSKEY#${credentialDigest}`, sk: 'PASSKEY' });
/** The user's index entry of that passkey, in the user's partition. */
export const passkeyOfUser = (userId: string, credentialDigest: string): Key => ({
  pk: `USER#${userId}`,
  sk: `PASSKEY#${credentialDigest}`,
});
/** The one site settings record: title, MFA policy, logo. */
export const siteSettings = (): Key => ({ pk: 'SITE', sk: 'SETTINGS' });
/** What the rotation job records of the signing key set: kids and times (core/admin/signing-key.ts). */
export const signingKeyTimes = (): Key => ({ pk: 'SIGNINGKEY', sk: 'TIMES' });
/** An API key record, by key id: the exchange knows nothing else. */
export const apiKey = (keyId: string): Key => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
/** The bound user's index entry of an API key, in the user's partition, ordered per client by creation. */
export const apiKeyOfUser = (key: Pick<ApiKey, 'userId' | 'clientId' | 'createdAt' | 'keyId'>): Key => ({
  pk: partitions.user(key.userId),
  sk: `${partitions.apiKeysOfUserPrefix(key.clientId)}${byTime(key.createdAt, key.keyId)}`,
});
/**
 * A trusted issuer of the id-jag profile, by environment and the SHA-256 of its URL (an issuer
 * URL may be longer than a key allows): the token path reads it with one GetItem (behaviour TRUST-2).
 */
export const trustedIssuer = (environmentId: string, issuer: string): Key => ({
  pk: `TRUST#${environmentId}#${digest(issuer)}`,
  sk: 'TRUST',
});
/** A trusted issuer of the workload profile, by the SHA-256 of its URL alone: one environment per issuer URL (behaviour TRUST-2). */
export const workloadIssuer = (issuer: string): Key => ({ pk: `TRUSTWORKLOAD#${digest(issuer)}`, sk: 'TRUST' });
/** A trusted issuer's id, pointing at its record (the admin API names it by id). */
export const trustedIssuerById = (trustedIssuerId: string): Key => ({ pk: `TRUSTID#${trustedIssuerId}`, sk: 'TRUSTID' });
// ephemeral table
export const session = (sessionId: string): Key => ({ pk: `SESSION#${digest(sessionId)}`, sk: 'SESSION' });
export const authorizationRequest = (requestId: string): Key => ({ pk: `AUTHREQ#${digest(requestId)}`, sk: 'AUTHREQ' });
/** A secret kept for one showing on a dashboard page (behaviour DASH-13), by the digest of its handle. */
export const shownOnce = (handle: string): Key => ({ pk: `SHOWNONCE#${digest(handle)}`, sk: 'SHOWNONCE' });
/** A pushed authorization request (RFC 9126), by the digest of its request_uri. */
export const pushedAuthorizationRequest = (requestUri: string): Key => ({ pk: `PAR#${digest(requestUri)}`, sk: 'PAR' });
export const authorizationCode = (code: string): Key => ({ pk: `CODE#${digest(code)}`, sk: 'CODE' });
export const refreshToken = (token: string): Key => ({ pk: `RT#${digest(token)}`, sk: 'RT' });
/**
 * The successor a rotation keeps for its grace window (behaviour REFRESH-7), in the rotated token's
 * own partition: the refresh-token grants cover it, and it expires by its own TTL.
 */
export const refreshGrace = (token: string): Key => ({ pk: `RT#${digest(token)}`, sk: 'GRACE' });
export const tokenFamily = (familyId: string): Key => ({ pk: `FAMILY#${familyId}`, sk: 'FAMILY' });
/** The issued-token record of an access token. */
export const tokenRecord = (jti: string): Key => ({ pk: `JTI#${jti}`, sk: 'JTI' });
/** A pending sign-in code (second factor), by the digest of the challenge id. */
export const signInChallenge = (challengeId: string): Key => ({ pk: `MFA#${digest(challengeId)}`, sk: 'MFA' });
/** The user's one email verification code: a new one replaces it. */
export const verificationCode = (userId: string): Key => ({ pk: `EMAILVERIFY#${userId}`, sk: 'EMAILVERIFY' });
/** A password-reset link, by the digest of its token (the caller digests it). */
export const resetLink = (tokenDigest: string): Key => ({ pk: `PWRESET#${tokenDigest}`, sk: 'PWRESET' });
/** The user's pointer to their newest reset link: issuing one replaces it, so older links stop working. */
export const resetLinkOfUser = (userId: string): Key => ({ pk: `PWRESETUSER#${userId}`, sk: 'PWRESETUSER' });
/** The proof a completed reset leaves (behaviour RESET-9), by the digest of its token. */
export const recoveryProof = (proofDigest: string): Key => ({ pk: `PWRECOVER#${proofDigest}`, sk: 'PWRECOVER' });
/** A WebAuthn ceremony, by the digest of its challenge. */
/** A used one-time identifier (`jti`), per purpose and issuer (single-use-ids.ts). */
export const usedIdentifier = (purpose: string, issuer: string, jti: string): Key => ({
  pk: `USED#${purpose}#${digest(`${issuer}\n${jti}`)}`,
  sk: 'USED',
});

export const passkeyCeremony = (challenge: string): Key => ({ pk: `WEBAUTHN#${digest(challenge)}`, sk: 'WEBAUTHN' });
/** The mail send times of one subject (`OTP#<user>`, `EMAILVERIFY#<user>`, `RESET#<address digest>`). */
export const sendRate = (subject: string): Key => ({ pk: `SENDRATE#${subject}`, sk: 'SENDRATE' });
/** The failed-password slots of one address in one 15-minute window. */
export const passwordFailures = (subject: string, window: number): Key => ({ pk: `PWFAIL#${subject}#${window}`, sk: 'PWFAIL' });
/** A device cookie's standing, by the digest of its nonce (the cookie value is never stored). */
export const device = (nonce: string): Key => ({ pk: `DEVICE#${digest(nonce)}`, sk: 'DEVICE' });
/** The registrations of one network on one UTC day (behaviour REG-6). */
export const registrationCounter = (day: string, network: string): Key => ({ pk: `DCRRATE#${day}#${network}`, sk: 'DCRRATE' });
// activity table
/** A token activity row, on its shard (activity-shards.ts), ordered by the attempt's start. */
export const tokenActivity = (
  row: { readonly clientId?: string; readonly startedAt: string; readonly attemptId: string },
  shard: number,
): Key => ({
  pk: partitions.activityShard(row.clientId, shard),
  sk: byTime(row.startedAt, row.attemptId),
});
/** An admin audit entry, in the partition of what it is about; `id` is random. */
export const auditEntry = (entry: Pick<AdminAuditEntry, 'at' | 'clientId' | 'userId'>, id: string): Key => ({
  pk: partitions.auditOf(entry),
  sk: byTime(entry.at, id),
});
