/**
 * The grants' ports: what they need from storage and the directory, as small interfaces (the
 * core imports no adapter); grant.ts holds GrantDependencies, the bag a grant is given.
 * DynamoTokenStore, DynamoUserRepository and DynamoEnvironmentRepository satisfy them structurally.
 */
import type { ActivityRow, AuthorizationCode, IssuedToken, NewFamily, RefreshToken, User } from '../model';

/** What one successful token request writes besides its grant-specific changes. */
export interface Issuance {
  readonly token: IssuedToken;
  readonly activity: ActivityRow;
  /** A new refresh token, when the grant issues one. */
  readonly refresh?: { readonly token: string; readonly value: RefreshToken };
}

export type RedeemOutcome = { readonly kind: 'redeemed' } | { readonly kind: 'reused'; readonly familyId?: string };
export type RotateOutcome = { readonly kind: 'rotated' } | { readonly kind: 'reused' } | { readonly kind: 'family-revoked' };
/** How a grace-window reissue of a kept successor ended (behaviour REFRESH-7). */
export type ReissueOutcome = 'reissued' | 'successor-used' | 'family-revoked' | 'undetermined';

export interface GrantStore {
  getCode(code: string, nowEpoch: number): Promise<AuthorizationCode | undefined>;
  /** One transaction: consume the code, create the family, write the issuance. */
  redeemCode(code: string, family: NewFamily, issuance: Issuance): Promise<RedeemOutcome>;
  getRefreshToken(token: string, nowEpoch: number): Promise<RefreshToken | undefined>;
  isFamilyRevoked(familyId: string): Promise<boolean>;
  /** One transaction: mark the old token rotated (only once), check the family, write the issuance. */
  rotateRefreshToken(
    oldToken: string,
    familyId: string,
    nowEpoch: number,
    issuance: Issuance,
    /** Keep the successor for `oldToken` until then (behaviour REFRESH-7), in the same transaction. */
    grace?: { readonly untilEpoch: number },
  ): Promise<RotateOutcome>;
  /** The successor kept for `rotatedToken` while its grace window lasts; undefined when none is (behaviour REFRESH-7). */
  graceSuccessor(rotatedToken: string, nowEpoch: number): Promise<string | undefined>;
  /** One transaction: the successor still unused and the family unrevoked, write the issuance (a new access token). */
  reissueWithinGrace(successor: string, familyId: string, issuance: Issuance): Promise<ReissueOutcome>;
  revokeFamily(familyId: string, nowEpoch: number): Promise<void>;
  /** One batch write: token record and activity row (nothing to consume). */
  recordIssued(issuance: Issuance): Promise<void>;
}

export interface UserDirectory {
  /** The user as stored now (strongly consistent: a password change a moment ago counts, behaviour RESET-12). */
  get(id: string): Promise<User | undefined>;
}

export interface EnvironmentAccess {
  hasAccess(userId: string, environmentId: string): Promise<boolean>;
}
