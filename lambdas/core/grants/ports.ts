/**
 * The grants' ports: what they need from storage and the directory, as small interfaces (the
 * core imports no adapter); grant.ts holds GrantDependencies, the bag a grant is given.
 * DynamoTokenStore, DynamoUserRepository and DynamoEnvironmentRepository satisfy them structurally.
 */
import type { JwtAssertionVerifier } from '../jwt-assertions';
import type { ActivityRow, AuthorizationCode, IssuedToken, NewFamily, RefreshToken, User } from '../model';
import type { SingleUseIds } from '../ports';
import type { CatalogNames } from '../scope';
import type { TrustedIssuerLookup } from '../trusted-issuers/ports';

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
  /** One transaction: a family begun without a code (an ID-JAG, behaviour IDJAG-6) and what is issued with it. */
  startFamily(family: NewFamily, issuance: Issuance): Promise<void>;
}

export interface UserDirectory {
  /** The user as stored now (strongly consistent: a password change a moment ago counts, behaviour RESET-12). */
  get(id: string): Promise<User | undefined>;
}

export interface EnvironmentAccess {
  hasAccess(userId: string, environmentId: string): Promise<boolean>;
}

/** What the JWT-bearer grant reads and writes besides the token store (behaviour JWTB-1). */
export interface AssertionGrantPorts {
  readonly trustedIssuers: TrustedIssuerLookup;
  readonly verifier: JwtAssertionVerifier;
  /** The assertions' `jti`s, purpose 'authorization-grant', per issuer (behaviour JWTB-3). */
  readonly singleUseIds: SingleUseIds;
  /** Which scope names the catalog holds now: a workload rule may name one deleted since (behaviour ADMIN-18). */
  readonly catalogNames: CatalogNames;
  readonly federatedUsers: FederatedUsers;
}

/** The users an ID-JAG names by address, and those it creates on first use (behaviour IDJAG-5). */
export interface FederatedUsers {
  findByEmail(email: string): Promise<User | undefined>;
  /**
   * One transaction: the user, its address and its grant of the environment as it is now.
   * `address-taken`: another user has the address (a concurrent first use), nothing written;
   * `no-environment`: the environment is gone, nothing written.
   */
  createInEnvironment(user: User, environmentId: string, grantedAt: string): Promise<'created' | 'address-taken' | 'no-environment'>;
}
