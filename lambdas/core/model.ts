/**
 * The domain's records, as the core sees them: no storage keys (pk/sk/gsi/ttl),
 * no secrets in the clear. Times are ISO 8601 strings unless named `...Epoch`.
 */
import type { GrantType } from './grants/grant-types';

export type { GrantType };

export interface Environment {
  readonly id: string;
  readonly name: string;
  /** The environment new dynamic clients are placed in (at most one in practice). */
  readonly dcr: boolean;
  readonly createdAt: string;
}

export interface User {
  readonly id: string;
  /** Lower-cased; unique. Optional: a user without one cannot receive mail (behaviour KEY-14). */
  readonly email?: string;
  readonly name: string;
  /** Argon2id PHC string; absent for users who cannot sign in with a password. */
  readonly passwordHash?: string;
  readonly admin: boolean;
  /** Test users may be bound only to test clients (behaviour KEY-3). */
  readonly test: boolean;
  readonly createdAt: string;
  readonly updatedAt?: string;
  /** When the user proved they read mail at `email` (a code or reset link); cleared when `email` changes. */
  readonly emailVerifiedAt?: string;
  /**
   * Incremented by every password change (behaviour RESET-7) and by the reset completion's "Remove all
   * passkeys" (behaviour RESET-9): a reset link, a pending second-factor challenge, a session, an
   * authorization code and a refresh token remember the value they were issued under and die when
   * it moves (behaviour RESET-12). Absent means 0.
   */
  readonly credentialVersion?: number;
  /**
   * Moved only by "Remove all passkeys" after a reset, in the same write as credentialVersion
   * (behaviour RESET-9, PASSKEY-13): a passkey signs in only while its `generation` is this one, so
   * every passkey added before the removal stops at that write, whether or not its record is
   * deleted yet. Absent means 0.
   */
  readonly passkeyGeneration?: number;
  /**
   * Moved by the same write (behaviour RESET-13, KEY-17): a self-service API key exchanges only
   * while its `generation` is this one, so every self-service key made before the reset's "Remove
   * all" stops at that write, whether or not its revocation is stored yet. Admin-created keys do
   * not carry one and are not affected. Absent means 0.
   */
  readonly apiKeyGeneration?: number;
}

export type ClientType = 'public' | 'confidential';
export type RegistrationType = 'static' | 'dynamic';

export interface Client {
  readonly clientId: string;
  readonly name: string;
  readonly type: ClientType;
  /** Argon2id PHC string of the client secret (confidential clients only). */
  readonly secretHash?: string;
  /**
   * The secret a rotation replaced, still accepted until `previousSecretExpiresAtEpoch` (behaviour
   * ADMIN-20): at most one, so a client holds at most two secrets at a time.
   */
  readonly previousSecretHash?: string;
  readonly previousSecretExpiresAtEpoch?: number;
  readonly environmentId: string;
  /** Compared by exact string match (OAuth 2.1 section 4.1.1). */
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly GrantType[];
  /** Scopes granted to the client: the most any of its tokens can carry. */
  readonly scopes: readonly string[];
  readonly registrationType: RegistrationType;
  /** An admin API client: its client_credentials tokens may call /api/admin/*. */
  readonly admin: boolean;
  /**
   * May introspect every token of this server (a resource server). Without it a client
   * introspects only the tokens issued to it (RFC 7662 2.2: the server decides what to reveal).
   */
  readonly introspectAll?: boolean;
  /** RFC 9126 6: its authorization requests must be pushed first (behaviour AUTHZ-18). */
  readonly requirePushedAuthorizationRequests?: boolean;
  readonly test: boolean;
  readonly createdAt: string;
  /** For a client identified by its metadata document URL: when to fetch the document again. */
  readonly metadataDocumentRefreshAfterEpoch?: number;
  /** A dynamic client that has not completed a token request yet and expires if it never does. */
  readonly expiresUnused?: boolean;
  /**
   * Seconds a rotated refresh token still gets its successor again (behaviour REFRESH-7); 0: none.
   * Absent: the server's REFRESH_GRACE_SECONDS.
   */
  readonly refreshGraceSeconds?: number;
  /**
   * private_key_jwt (RFC 7523 2.2, behaviour TOKEN-6): the client's public keys, held here (RFC 7591 2
   * `jwks`) or at its `jwks_uri`, never both; such a confidential client has no secret.
   */
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  readonly jwksUri?: string;
  /** RFC 7591 2 `token_endpoint_auth_signing_alg`: the one algorithm its assertions may use. */
  readonly tokenEndpointAuthSigningAlg?: string;
  /** RFC 9449 5.2: every token request must carry a DPoP proof (behaviour TOKEN-9). */
  readonly dpopBoundAccessTokens?: boolean;
}

/** What the authorization step grants; carried by codes and refresh tokens. */
export interface Grant {
  readonly clientId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  /** RFC 8707 resource the tokens are bound to (`aud`). */
  readonly resource?: string;
  /** Epoch seconds of the sign-in, for the ID token's auth_time. */
  readonly authTime: number;
  /**
   * How the user authenticated (RFC 8176): the ID token's `amr`, and what the MFA policy in force is
   * held against on every use (behaviour MFA-9). Absent on records written before it was kept: a password alone.
   */
  readonly amr?: readonly string[];
  /** The user's credentialVersion at that sign-in; a password change since ends the grant (behaviour RESET-12). Absent means 0. */
  readonly credentialVersion?: number;
}

export interface AuthorizationCode extends Grant {
  readonly redirectUri: string;
  /** The authorization request named redirect_uri, so the token request must repeat it (OAuth 2.1 4.1.3). */
  readonly redirectUriNamed?: boolean;
  readonly codeChallenge: string;
  readonly nonce?: string;
  /** RFC 9449 10: the `dpop_jkt` of the authorization request; the redemption must prove this key (behaviour CODE-5). */
  readonly dpopJkt?: string;
  readonly expiresAtEpoch: number;
  /** Set when redeemed; a second redemption finds it and revokes this family. */
  readonly familyId?: string;
}

export interface RefreshToken extends Grant {
  readonly familyId: string;
  /** RFC 9449 5: a public client's token is bound to its DPoP key; every rotation must prove it (behaviour REFRESH-8). */
  readonly dpopJkt?: string;
  readonly expiresAtEpoch: number;
  /** Set when this token was exchanged for its successor. */
  readonly rotatedAtEpoch?: number;
}

/** A refresh family as a code redemption starts it: one sign-in's tokens, ended together. */
export interface NewFamily {
  readonly familyId: string;
  /** Epoch seconds: a fixed time after the sign-in, however often it rotates. */
  readonly expiresAtEpoch: number;
  /** The user's credentialVersion at that sign-in (behaviour RESET-12), fixed for the family's life. */
  readonly credentialVersion: number;
}

/**
 * A refresh family as a bearer check reads it (behaviour BEARER-1): revoked, and the password
 * version of its sign-in, which the check compares with the user's as stored now (RESET-12).
 */
export interface FamilyState {
  readonly userId: string;
  readonly revoked: boolean;
  /** Absent on families stored before it was kept: 0, as everywhere credentialVersion is kept. */
  readonly credentialVersion: number;
}

export interface Session {
  readonly userId: string;
  readonly authTime: number;
  /**
   * RFC 8176 methods of the sign-in that started it (`pwd`; `pwd otp mfa` with an emailed code;
   * `hwk user mfa` with a passkey). Absent on sessions stored before it was kept: a password alone (behaviour MFA-9).
   */
  readonly amr?: readonly string[];
  /** The user's credentialVersion when it started: a session of an older one is no session (behaviour RESET-12). Absent means 0. */
  readonly credentialVersion?: number;
  readonly expiresAtEpoch: number;
}

/** One row per token request (behaviour LOG-1 "Token activity log"), success or failure. */
export interface ActivityRow {
  /** A grant type of the registry (lambdas/core/grants/registry.ts), an API-key exchange, or a grant type not read. */
  readonly requestType: GrantType | 'api key' | 'unknown';
  readonly clientId?: string;
  readonly environmentId?: string;
  readonly userId?: string;
  readonly apiKeyId?: string;
  readonly ip: string;
  readonly success: boolean;
  /** The real reason of a failure (never on the wire); on a success, what was unusual (behaviour REFRESH-7). */
  readonly reason?: string;
  readonly durationMs: number;
  /** When the attempt began, and its random id: together they key the row (one per attempt). */
  readonly startedAt: string;
  readonly attemptId: string;
  readonly at: string;
}

/** A record of each issued access token, so introspection can see revocation. */
export interface IssuedToken {
  readonly jti: string;
  readonly clientId: string;
  readonly sub?: string;
  readonly familyId?: string;
  readonly apiKeyId?: string;
  /** A workload's token (behaviour WIF-4): the trusted issuer it came through, its client_id; it has no client record. */
  readonly trustedIssuerId?: string;
  readonly expiresAtEpoch: number;
}

/** Who created an API key (behaviour KEY-2 "created by"): an admin caller or the bound user itself. */
export type ApiKeyCreator =
  | { readonly kind: 'admin-client'; readonly clientId: string }
  | { readonly kind: 'admin-user'; readonly userId: string }
  | { readonly kind: 'user'; readonly userId: string };

/**
 * A key its own user created: self-served (`user`), or made by an admin user bound to their own
 * account (`admin-user` with the key's userId). Either stands for that user's sign-in, so both
 * follow the self-service rules a sign-in's key needs: MFA-12 (as strong as that sign-in), KEY-17
 * and RESET-13 (ended by the owner's recovery). Keys an administrator made for someone else are
 * integrations, left to administrators.
 */
export const isUsersOwnKey = (key: { readonly createdBy?: ApiKeyCreator; readonly userId: string }): boolean =>
  key.createdBy?.kind === 'user' || (key.createdBy?.kind === 'admin-user' && key.createdBy.userId === key.userId);

/**
 * A long-lived API key (behaviour KEY-2). The secret exists only as `secretHash` (Argon2id PHC);
 * revocation is a soft delete, so the record outlives it and audit rows keep resolving.
 */
export interface ApiKey {
  /** 8 random bytes, hex: the handle of the admin API, safe to display and log. */
  readonly keyId: string;
  readonly clientId: string;
  /** Mandatory: the `sub` of every token the key mints. */
  readonly userId: string;
  readonly name?: string;
  /** Snapshot of the client's scopes at creation (behaviour KEY-11), only ever narrowed afterwards. */
  readonly scopes: readonly string[];
  readonly secretHash: string;
  readonly createdAt: string;
  readonly createdBy: ApiKeyCreator;
  /** ISO 8601, UTC (`toISOString` form, so stored values compare as strings). */
  readonly expiresAt?: string;
  readonly revokedAt?: string;
  readonly lastUsedAt?: string;
  /**
   * Self-service keys only: the user's `apiKeyGeneration` when the key was created (absent = 0);
   * the key exchanges only while it is still the user's (behaviour KEY-17).
   */
  readonly generation?: number;
  /**
   * Self-service keys: RFC 8176 methods of the sign-in whose token created the key. Absent (an
   * admin's key, or one created before it was kept) counts as a password alone for a
   * self-service key; the exchange holds it to the MFA policy in force (behaviour MFA-12).
   */
  readonly amr?: readonly string[];
}

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/**
 * What the admin audit log records (behaviour LOG-4): API key changes (in the same
 * transaction as the change) and every other change made through the dashboard.
 */
export const auditTypes = [
  'api_key.create',
  'api_key.revoke',
  'client.create',
  'client.update',
  'client.delete',
  'client.secret_rotate',
  'user.create',
  'user.update',
  'user.delete',
  'user.environment_grant',
  'user.environment_revoke',
  'user.passkey_remove',
  'user.sessions_revoke',
  'user.password_reset_send',
  'environment.create',
  'environment.delete',
  'scope.create',
  'scope.delete',
  'trusted_issuer.create',
  'trusted_issuer.update',
  'trusted_issuer.delete',
  // Written by lambdas/core/site with the settings change, in one transaction (behaviour SITE-1, SITE-3).
  'site.settings.update',
  'site.logo.update',
  'site.logo.delete',
] as const;
export type AuditType = (typeof auditTypes)[number];

/** One audit log entry: who (an admin) changed what, when; never a secret or hash. */
export interface AdminAuditEntry {
  readonly type: AuditType;
  readonly actor: ApiKeyCreator;
  readonly at: string;
  readonly clientId?: string;
  readonly keyId?: string;
  readonly userId?: string;
  readonly environmentId?: string;
  readonly scope?: string;
  readonly scopes?: readonly string[];
  /** The trusted issuer a `trusted_issuer.*` entry is about, and its URL (behaviour TRUST-1). */
  readonly trustedIssuerId?: string;
  readonly issuer?: string;
  /** What changed, in words (e.g. the fields of an update), or why a revocation happened. */
  readonly reason?: string;
  /** The site settings' changed fields, old and new value (site.* entries). */
  readonly changes?: Readonly<Record<string, { readonly from: unknown; readonly to: unknown }>>;
}

/** An API key's audit log entry (behaviour LOG-4): written in the same transaction as the key change. */
export interface AuditEntry extends AdminAuditEntry {
  readonly type: 'api_key.create' | 'api_key.revoke';
  readonly clientId: string;
  readonly keyId: string;
  readonly userId: string;
  /** The key's scopes (create); never the secret or its hash. */
  readonly scopes?: readonly string[];
  readonly actor: ApiKeyCreator;
  /** Why a revocation happened when it was not a DELETE (an undeliverable notification). */
  readonly reason?: string;
  readonly at: string;
}

/** Which sign-ins need a second factor (behaviour MFA-1); the setting MFA_POLICY and the site settings choose one. */
export const mfaPolicies = ['off', 'admins', 'everyone'] as const;
export type MfaPolicy = (typeof mfaPolicies)[number];
