/**
 * What the admin domain needs from storage: small structural interfaces that the DynamoDB
 * repositories satisfy as they are, so lambdas/core/admin imports no AWS SDK.
 */
import type { AdminAuditEntry, ApiKeyCreator, Client, Environment, RegistrationType, User } from '../model';
import type { Clock, Hasher, RandomSource, ScopeDefinition } from '../ports';
import type { PasskeyStore } from '../account/ports';

export interface Page<T> {
  readonly items: T[];
  /** Opaque cursor of the next page; absent on the last page. */
  readonly next?: string;
}

export type UserChanges = Partial<
  Pick<User, 'email' | 'name' | 'passwordHash' | 'admin' | 'test' | 'emailVerifiedAt' | 'credentialVersion'>
>;

export interface UserStore {
  get(id: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Throws ConflictError when the email is taken. `audit` is written in the same transaction (behaviour LOG-9). */
  create(user: User, audit?: AdminAuditEntry): Promise<void>;
  list(limit: number, cursor?: string): Promise<Page<User>>;
  /** Throws ConflictError when the user changed since `current` was read, or the new email is taken. */
  update(current: User, changes: UserChanges, updatedAt: string, audit?: AdminAuditEntry): Promise<User>;
  /** The user's environment grants, then the user with its email item and `audit` in one transaction (behaviour ADMIN-7). */
  delete(user: User, audit?: AdminAuditEntry): Promise<void>;
}

export interface EnvironmentGrant {
  readonly userId: string;
  readonly environmentId: string;
  readonly grantedAt: string;
}

export interface EnvironmentStore {
  get(id: string): Promise<Environment | undefined>;
  /** Throws ConflictError when the id is taken. `audit` is written in the same transaction (behaviour LOG-9). */
  create(environment: Environment, audit?: AdminAuditEntry): Promise<void>;
  list(limit: number, cursor?: string): Promise<Page<Environment>>;
  delete(id: string): Promise<boolean>;
  /**
   * False when the environment does not exist (also when it was deleted while this was granting).
   * `audit` is written in the same transaction (behaviour LOG-9).
   */
  grant(userId: string, environmentId: string, grantedAt: string, audit?: AdminAuditEntry): Promise<boolean>;
  revoke(userId: string, environmentId: string, audit?: AdminAuditEntry): Promise<boolean>;
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
  createScope(scope: ScopeDefinition, audit?: AdminAuditEntry): Promise<boolean>;
  /** Deletes the scope and moves the catalog version, in one transaction; idempotent. */
  deleteScope(name: string): Promise<void>;
}

/** Who holds a scope: how many clients, and the ids of the first few (for a readable refusal). */
export interface ScopeHolders {
  readonly count: number;
  readonly sample: readonly string[];
}

export interface ClientStore {
  get(clientId: string): Promise<Client | undefined>;
  /**
   * Throws ConflictError when the client id is taken, ScopeCatalogChangedError when `catalog`
   * is given and a scope was deleted since that check (nothing written either way). `audit` is
   * written in the same transaction (behaviour LOG-9).
   */
  create(client: Client, expiresAtEpoch?: number, audit?: AdminAuditEntry, catalog?: CatalogCheck): Promise<void>;
  list(registrationType: RegistrationType, limit: number, cursor?: string): Promise<Page<Client>>;
  /** Throws ScopeCatalogChangedError as create does. */
  update(
    clientId: string,
    changes: { readonly name?: string; readonly scopes?: readonly string[]; readonly redirectUris?: readonly string[] },
    audit?: (before: Client, after: Client) => AdminAuditEntry,
    catalog?: CatalogCheck,
  ): Promise<{ before: Client; after: Client } | undefined>;
  delete(clientId: string, audit?: AdminAuditEntry): Promise<boolean>;
  anyInEnvironment(environmentId: string): Promise<boolean>;
  /** The clients (static or dynamic, each counted once) granted `scope`; up to `sampleSize` of their ids. */
  holdersOfScope(scope: string, sampleSize: number): Promise<ScopeHolders>;
}

/**
 * API keys (issue 5) plug in here; until they exist the admin domain runs without them.
 * Both steps must be idempotent: a failed admin call is retried as a whole.
 */
export interface ApiKeyHooks {
  /**
   * Behaviour KEY-12: every key of the client keeps only scopes the client still holds.
   * Given the whole granted set, not a difference, so a retried call repairs a failed one.
   */
  restrictKeysToScopes(clientId: string, granted: readonly string[]): Promise<void>;
  /** Deleting a user deletes that user's keys. */
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
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** CLIENT_ID_PREFIX */
  readonly clientIdPrefix: string;
  /** The scope an admin client's tokens need (lambdas/http/admin-auth.ts). */
  readonly adminScope: string;
  /** DCR_ENVIRONMENT_ID: that environment cannot be deleted while DCR may place clients in it. */
  readonly dcrEnvironmentId?: string;
  readonly apiKeys?: ApiKeyHooks;
  /** The user's passkeys (issue 13): listed and removed by the admin API, removed with the user. */
  readonly passkeys?: Pick<PasskeyStore, 'listOf' | 'remove' | 'removeAllOf'>;
  /** Tells the user (these addresses) that their password changed (issue 12); never fails the change. */
  readonly notifyPasswordChanged?: (user: User, addresses: readonly string[]) => Promise<void>;
}

export const isoNow = (clock: Clock): string => new Date(clock.now()).toISOString();
