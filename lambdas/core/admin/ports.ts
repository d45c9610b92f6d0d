/**
 * What the admin domain needs from storage: small structural interfaces that the DynamoDB
 * repositories satisfy as they are, so lambdas/core/admin imports no AWS SDK.
 */
import type { ActivityRow, AdminAuditEntry, ApiKeyCreator, AuditType, Client, Environment, RegistrationType, User } from '../model';
import type { Clock, Hasher, RandomSource, ScopeDefinition } from '../ports';
import type { PasskeyStore } from '../account/ports';
import type { TrustedIssuer } from '../trusted-issuers/model';
import type { TrustedIssuerLookup } from '../trusted-issuers/ports';

export interface Page<T> {
  readonly items: T[];
  /** Opaque cursor of the next page; absent on the last page. */
  readonly next?: string;
}

/**
 * One read of a list that a search or filter examines (behaviour ADMIN-21): each item with the
 * cursor that continues right after it, so a filtered page can end at any item read and its
 * cursor neither skips nor repeats one.
 */
export interface ListRead<T> {
  readonly entries: readonly { readonly item: T; readonly after: string }[];
  /** The cursor after everything the read examined, items the store left out included; absent at the list's end. */
  readonly next?: string;
}

/** The sharded activity rows of a client (lambdas/adapters/dynamodb/token-store.ts activityPage). */
export interface ActivityReader {
  activityPage(
    clientId: string,
    query: { from?: string; to?: string; limit: number; cursor?: string },
  ): Promise<{ items: ActivityRow[]; next?: string }>;
}

export interface AuditLogQuery {
  /** ISO times, inclusive. */
  readonly from: string;
  readonly to: string;
  /** Only these types; absent means all. */
  readonly types?: readonly AuditType[];
  /** Only the entries of this actor (a user or client id; behaviour LOG-15). */
  readonly actor?: string;
  /** Only the entries naming this id as their subject: client, key, user, environment, scope or trusted issuer (behaviour LOG-15). */
  readonly subject?: string;
  readonly limit: number;
  readonly cursor?: string;
}

/** The admin audit log (behaviour LOG-9): `record` only for the changes listed in docs/storage-schema.md that cannot share their transaction. */
export interface AuditLogStore {
  record(entry: AdminAuditEntry): Promise<void>;
  /** Newest first. */
  page(query: AuditLogQuery): Promise<Page<AdminAuditEntry>>;
}

export type UserChanges = Partial<
  Pick<User, 'email' | 'name' | 'passwordHash' | 'admin' | 'test' | 'emailVerifiedAt' | 'credentialVersion'>
>;

export interface UserStore {
  get(id: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Throws ConflictError when the email is taken. `audit` is written in the same transaction (behaviour LOG-9). */
  create(user: User, audit: AdminAuditEntry): Promise<void>;
  /** Newest first. */
  list(limit: number, cursor?: string): Promise<ListRead<User>>;
  /** The users granted the environment, by user id (its grants' list; behaviour ADMIN-22). */
  listInEnvironment(environmentId: string, limit: number, cursor?: string): Promise<ListRead<User>>;
  /** Throws ConflictError when the user changed since `current` was read, or the new email is taken. */
  update(current: User, changes: UserChanges, updatedAt: string, audit: AdminAuditEntry): Promise<User>;
  /** The user's environment grants, then the user with its email item and `audit` in one transaction (behaviour ADMIN-7). */
  delete(user: User, audit: AdminAuditEntry): Promise<void>;
}

export interface EnvironmentGrant {
  readonly userId: string;
  readonly environmentId: string;
  readonly grantedAt: string;
}

export interface EnvironmentStore {
  get(id: string): Promise<Environment | undefined>;
  /** Throws ConflictError when the id is taken. `audit` is written in the same transaction (behaviour LOG-9). */
  create(environment: Environment, audit: AdminAuditEntry): Promise<void>;
  list(limit: number, cursor?: string): Promise<Page<Environment>>;
  /** Deletes the environment with its `audit` entry in one transaction (behaviour LOG-9); idempotent. */
  delete(id: string, audit: AdminAuditEntry): Promise<void>;
  /**
   * False when the environment does not exist (also when it was deleted while this was granting).
   * `audit` is written in the same transaction (behaviour LOG-9).
   */
  grant(userId: string, environmentId: string, grantedAt: string, audit: AdminAuditEntry): Promise<boolean>;
  revoke(userId: string, environmentId: string, audit: AdminAuditEntry): Promise<boolean>;
  grantsOf(userId: string): Promise<EnvironmentGrant[]>;
  revokeAllGrantsTo(environmentId: string): Promise<void>;
}

/**
 * The catalog as a grant checked it: a write granting scopes is refused with
 * ScopeCatalogChangedError when a scope was deleted since (behaviour ADMIN-18).
 */
export interface CatalogCheck {
  readonly catalogVersion: string | undefined;
}

export interface ScopeStore {
  listScopes(): Promise<readonly ScopeDefinition[]>;
  /** Strongly consistent: which of `names` the catalog lacks, and the version it was read at (read first). */
  checkScopes(names: readonly string[]): Promise<CatalogCheck & { readonly missing: readonly string[] }>;
  /** False when a scope of that name exists. */
  createScope(scope: ScopeDefinition, audit: AdminAuditEntry): Promise<boolean>;
  /** Deletes the scope and moves the catalog version, with its `audit` entry, in one transaction; idempotent. */
  deleteScope(name: string, audit: AdminAuditEntry): Promise<void>;
}

/** Who holds a scope: how many clients, and the ids of the first few (for a readable refusal). */
export interface ScopeHolders {
  readonly count: number;
  readonly sample: readonly string[];
  /** The reading stopped early (behaviour DASH-16): there may be more than `count`. */
  readonly more?: boolean;
}

/**
 * What an admin may change of a client: the fields PATCH /api/admin/clients/{client_id} accepts
 * (`name`, `scopes`, `introspect_all`, `redirect_uris`); the dashboard's client form sets all but
 * `introspectAll`.
 */
export interface ClientChanges {
  readonly name?: string;
  readonly scopes?: readonly string[];
  /** May introspect every token of this server (RFC 7662); confidential clients only. */
  readonly introspectAll?: boolean;
  /** Replaces the set; static clients with authorization_code only, at least one (behaviour DASH-6). */
  readonly redirectUris?: readonly string[];
  /** The client's refresh rotation grace window (behaviour REFRESH-7); null: back to the server's. */
  readonly refreshGraceSeconds?: number | null;
  /** RFC 9126 6: its authorization requests must be pushed (behaviour AUTHZ-18). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** Replaces a private_key_jwt client's keys, each kind by its own (behaviour ADMIN-19). */
  readonly jwks?: Client['jwks'];
  readonly jwksUri?: string;
  /** RFC 9449 5.2: its token requests must carry a DPoP proof (behaviour TOKEN-9). */
  readonly dpopBoundAccessTokens?: boolean;
}

export interface ClientStore {
  get(clientId: string): Promise<Client | undefined>;
  /**
   * Throws ConflictError when the client id is taken, ScopeCatalogChangedError when `catalog`
   * is given and a scope was deleted since that check (nothing written either way). `audit` is
   * written in the same transaction (behaviour LOG-9).
   */
  create(client: Client, expiresAtEpoch: number | undefined, audit: AdminAuditEntry, catalog?: CatalogCheck): Promise<void>;
  /** Newest first. */
  list(registrationType: RegistrationType, limit: number, cursor?: string): Promise<ListRead<Client>>;
  /** Throws ScopeCatalogChangedError as create does. */
  update(
    clientId: string,
    changes: ClientChanges,
    audit: (before: Client, after: Client) => AdminAuditEntry,
    catalog?: CatalogCheck,
  ): Promise<{ before: Client; after: Client } | undefined>;
  delete(clientId: string, audit: AdminAuditEntry): Promise<boolean>;
  /**
   * Behaviour ADMIN-20: `secretHash` becomes the client's secret; the one it replaces, as read in
   * the same write, stays valid until `previousExpiresAtEpoch` (none: it stops at once). Undefined
   * when the client is absent or has no secret; `audit` in the same transaction (behaviour LOG-9).
   */
  rotateSecret(
    clientId: string,
    secretHash: string,
    previousExpiresAtEpoch: number | undefined,
    audit: AdminAuditEntry,
  ): Promise<Client | undefined>;
  anyInEnvironment(environmentId: string): Promise<boolean>;
  /** The clients (static or dynamic, each counted once) granted `scope`; up to `sampleSize` of their ids. */
  holdersOfScope(scope: string, sampleSize: number): Promise<ScopeHolders>;
  /**
   * The clients placed in the environment, as anyInEnvironment sees them; up to `sampleSize` of
   * their ids. Bounded (behaviour DASH-16): it stops past `sampleSize` or after a bounded number of
   * reads, with `more`; only a confirmation page reads it, the deletion decides by anyInEnvironment.
   */
  inEnvironment(environmentId: string, sampleSize: number): Promise<ScopeHolders>;
  /**
   * The clients granted `scope`, as holdersOfScope sees them, bounded as inEnvironment is
   * (behaviour DASH-16): only a confirmation page reads it, the deletion decides by holdersOfScope.
   */
  firstHoldersOfScope(scope: string, sampleSize: number): Promise<ScopeHolders>;
}

/** What user and client changes do to API keys. Each step is idempotent: a failed admin call is retried as a whole. */
export interface ApiKeyHooks {
  /**
   * Behaviour KEY-12: every key of the client keeps only scopes the client still holds.
   * Given the whole granted set, not a difference, so a retried call repairs a failed one.
   */
  restrictKeysToScopes(clientId: string, granted: readonly string[]): Promise<void>;
  /** Deleting a user deletes that user's keys (behaviour ADMIN-7). */
  deleteKeysOfUser(userId: string): Promise<void>;
  /**
   * Deleting a client revokes its keys (soft, each with its `api_key.revoke` audit entry and
   * `reason`), so the list and the audit log say what happened. Idempotent: keys already
   * revoked keep their first timestamp.
   */
  revokeKeysOfClient(
    clientId: string,
    revocation: { readonly at: string; readonly actor: ApiKeyCreator; readonly reason: string },
  ): Promise<void>;
}

export interface AdminDependencies {
  readonly users: UserStore;
  readonly environments: EnvironmentStore;
  readonly scopes: ScopeStore;
  readonly clients: ClientStore;
  readonly sessions: { deleteSessionsOf(userId: string): Promise<void> };
  readonly tokens: { revokeFamiliesOf(userId: string, nowEpoch: number): Promise<void> };
  /** Written to directly only by the use cases whose change cannot carry its entry (docs/storage-schema.md). */
  readonly auditLog: Pick<AuditLogStore, 'record'>;
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** CLIENT_ID_PREFIX */
  readonly clientIdPrefix: string;
  /** The scope an admin client's tokens need (lambdas/http/admin-auth.ts). */
  readonly adminScope: string;
  /** DCR_ENVIRONMENT_ID: that environment cannot be deleted while DCR may place clients in it. */
  readonly dcrEnvironmentId?: string;
  /** The local server only: a private_key_jwt client's jwks_uri may be http on loopback (behaviour ADMIN-19). */
  readonly allowLoopbackJwksUri?: boolean;
  readonly apiKeys: ApiKeyHooks;
  /** The user's passkeys (behaviour PASSKEY-8): listed for the admin, removed with the user (ADMIN-7). */
  readonly passkeys: Pick<PasskeyStore, 'listOf' | 'removeAllOf'>;
  /** The issuers the JWT-bearer grant trusts (behaviour TRUST-1); an environment holding one is not deleted (TRUST-8). */
  readonly trustedIssuers: TrustedIssuerStore;
  /**
   * Tells the user (these addresses) that their password changed (behaviour RESET-10); never fails
   * the change. Only updateUser calls it, so the functions that send no mail leave it out.
   */
  readonly notifyPasswordChanged: (user: User, addresses: readonly string[]) => Promise<void>;
  /**
   * Tells the admins a client's secret was rotated (behaviour ADMIN-24), after the rotation is
   * written; never fails it. Only rotateClientSecret calls it.
   */
  readonly notifySecretRotated: (rotation: SecretRotation) => Promise<void>;
}

/** The admin use cases' parts that send mail: the functions that send none are built without them (lambdas/wiring/admin.ts). */
export type AdminMailParts = 'notifyPasswordChanged' | 'notifySecretRotated';

/** A client-secret rotation as written (behaviour ADMIN-20), for the admins' mail (ADMIN-24). */
export interface SecretRotation {
  readonly client: Client;
  readonly actor: Exclude<ApiKeyCreator, { kind: 'user' }>;
  readonly at: string;
  /** Absent when the replaced secret stopped at once. */
  readonly previousSecretExpiresAt?: string;
}

/** An admin user as a mail to the admins needs them. */
export type AdminRecipient = Pick<User, 'id' | 'email' | 'name'>;

/**
 * The users with the `admin` flag (behaviour ADMIN-25): the user list read with a filter, oldest
 * first, stopped after `limits.usersRead` users or `limits.admins` admins; `complete` is false when
 * a limit stopped it before the list's end.
 */
export interface AdminDirectory {
  admins(limits: { readonly usersRead: number; readonly admins: number }): Promise<{
    readonly admins: readonly AdminRecipient[];
    readonly complete: boolean;
  }>;
}

export const isoNow = (clock: Clock): string => new Date(clock.now()).toISOString();

/** The admin use cases' store; every change carries its audit entry in its own transaction (behaviour LOG-9). */
export interface TrustedIssuerStore extends TrustedIssuerLookup {
  /**
   * Throws ConflictError when the issuer is already trusted with this profile (id-jag: in this
   * environment; workload: in any environment); false when its environment does not exist
   * (checked in the write's transaction); ScopeCatalogChangedError when `catalog` is given and a
   * scope was deleted since that check (behaviour ADMIN-18); nothing written either way.
   */
  create(trustedIssuer: TrustedIssuer, audit: AdminAuditEntry, catalog?: CatalogCheck): Promise<boolean>;
  get(trustedIssuerId: string): Promise<TrustedIssuer | undefined>;
  /** Newest first. */
  list(limit: number, cursor?: string): Promise<Page<TrustedIssuer>>;
  /**
   * Replaces `current` with `next` (same id, issuer, profile, environment); false when it changed
   * or went since `current` was read; ScopeCatalogChangedError as create.
   */
  update(current: TrustedIssuer, next: TrustedIssuer, audit: AdminAuditEntry, catalog?: CatalogCheck): Promise<boolean>;
  /** Deletes it with its entry in one transaction; idempotent. */
  delete(trustedIssuer: TrustedIssuer, audit: AdminAuditEntry): Promise<void>;
  /** The trusted issuers whose workload rules give `scope`: a scope is not deleted while any does (behaviour ADMIN-18). */
  holdersOfScope(scope: string, sampleSize: number): Promise<ScopeHolders>;
  /** Whether any issuer is trusted in the environment (its deletion is refused while one is). */
  anyInEnvironment(environmentId: string): Promise<boolean>;
}
