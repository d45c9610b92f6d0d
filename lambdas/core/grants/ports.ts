/**
 * What the grants need from storage and the directory, as small interfaces: the core
 * imports no adapter. DynamoTokenStore, DynamoUserRepository and
 * DynamoEnvironmentRepository satisfy them structurally.
 */
import type { MfaPolicy } from '../../config/settings';
import type { ActivityRow, AuthorizationCode, IssuedToken, NewFamily, RefreshToken, User } from '../model';
import type { TokenDependencies } from '../tokens';

/** What one successful token request writes besides its grant-specific changes. */
export interface Issuance {
  readonly token: IssuedToken;
  readonly activity: ActivityRow;
  /** A new refresh token, when the grant issues one. */
  readonly refresh?: { readonly token: string; readonly value: RefreshToken };
}

export type RedeemOutcome = { readonly kind: 'redeemed' } | { readonly kind: 'reused'; readonly familyId?: string };
export type RotateOutcome = { readonly kind: 'rotated' } | { readonly kind: 'reused' } | { readonly kind: 'family-revoked' };

export interface GrantStore {
  getCode(code: string, nowEpoch: number): Promise<AuthorizationCode | undefined>;
  /** One transaction: consume the code, create the family, write the issuance. */
  redeemCode(code: string, family: NewFamily, issuance: Issuance): Promise<RedeemOutcome>;
  getRefreshToken(token: string, nowEpoch: number): Promise<RefreshToken | undefined>;
  isFamilyRevoked(familyId: string): Promise<boolean>;
  /** One transaction: mark the old token rotated (only once), check the family, write the issuance. */
  rotateRefreshToken(oldToken: string, familyId: string, nowEpoch: number, issuance: Issuance): Promise<RotateOutcome>;
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

export interface GrantDependencies extends TokenDependencies {
  readonly store: GrantStore;
  readonly users: UserDirectory;
  readonly environments: EnvironmentAccess;
  /** Dynamic clients' users need this environment, whatever the client record says (behaviour ENV-1). */
  readonly dcrEnvironmentId?: string;
  /** Epoch seconds before which a sign-in counts for nothing (SIGN_INS_NOT_BEFORE, behaviour OPS-7). */
  readonly signInsNotBefore?: number;
  /** The MFA policy in force (behaviour MFA-9), read only for a sign-in without a second factor. */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
  /**
   * Marks a dynamic client as used, so it no longer expires unused; never fails the request
   * (the tokens are issued; a later redemption tries again).
   */
  readonly keepClient: (clientId: string) => Promise<void>;
  /** Waits between re-reads after a lost race; injectable so tests need not wait. */
  readonly pause?: (ms: number) => Promise<void>;
}
