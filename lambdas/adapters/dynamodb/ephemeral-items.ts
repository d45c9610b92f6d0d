/**
 * Items of the ephemeral and activity tables (docs/storage-schema.md). One-time values
 * are keyed by their SHA-256 digest, so a table dump yields nothing usable. Builders are
 * shared so one transaction can write several kinds (a code redemption writes the
 * code, the refresh family, the refresh token, the token record and the activity row).
 */
import type { ActivityRow, AuthorizationCode, IssuedToken, NewFamily, RefreshToken, Session } from '../../core/model';
import { lifetimes } from '../../core/lifetimes';
import { activityShard } from './activity-shards';
import { expiringItem } from './items';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';

export function sessionItem(sessionId: string, session: Session, createdAt: string) {
  return {
    ...keys.session(sessionId),
    gsi1pk: partitions.sessionsOfUser(session.userId),
    gsi1sk: createdAt,
    ...session,
    ttl: session.expiresAtEpoch,
  };
}

export function codeItem(code: string, value: AuthorizationCode) {
  return expiringItem(keys.authorizationCode(code), value);
}

export function refreshItem(token: string, value: RefreshToken) {
  return {
    ...keys.refreshToken(token),
    gsi1pk: partitions.refreshTokensOfUser(value.userId),
    gsi1sk: value.familyId,
    ...value,
    ttl: value.expiresAtEpoch,
  };
}

/** `credentialVersion`: that of the sign-in, so a bearer check compares it with the user's (behaviour BEARER-1, RESET-12). */
export function familyItem(family: NewFamily, userId: string, clientId: string) {
  return {
    ...keys.tokenFamily(family.familyId),
    gsi1pk: partitions.familiesOfUser(userId),
    gsi1sk: family.familyId,
    familyId: family.familyId,
    userId,
    clientId,
    credentialVersion: family.credentialVersion,
    expiresAtEpoch: family.expiresAtEpoch,
    ttl: family.expiresAtEpoch,
  };
}

export function tokenRecordItem(token: IssuedToken) {
  return expiringItem(keys.tokenRecord(token.jti), token);
}

/** Activity rows: partitioned per client so a busy client does not make one hot partition for all. */
export function activityItem(row: ActivityRow) {
  const atEpoch = Math.floor(Date.parse(row.at) / 1000);
  return {
    ...keys.tokenActivity(row, activityShard(row.attemptId)),
    ...row,
    ttl: atEpoch + lifetimes.activityRetention,
  };
}
