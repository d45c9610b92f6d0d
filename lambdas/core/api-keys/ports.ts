/**
 * What API keys need from storage and the directory, as small interfaces; the DynamoDB
 * store (lambdas/adapters/dynamodb/api-key-store.ts) satisfies them structurally.
 */
import type { ListRead } from '../admin/ports';
import type { Issuance } from '../grants/ports';
import type { ApiKey, AuditEntry, Client, User } from '../model';
import type { Clock, Hasher, Logger, RandomSource } from '../ports';
import type { TokenDependencies } from '../tokens';
import type { CatalogNames } from '../scope';
import type { VerifiedSecretCache } from '../verified-secret-cache';
import type { MfaPolicy } from '../model';

/** The immutable facts of a key that let a repeat exchange read its client and user with it. */
export interface KeyBinding {
  readonly clientId: string;
  readonly userId: string;
  /**
   * The environment the user must hold to use the client (known after a first exchange):
   * the user's grant of it is then read in the same round trip.
   */
  readonly environmentId?: string;
}

/** What one exchange reads: the key, and (when its binding was known) its client and user. */
export interface ExchangeRead {
  readonly key?: ApiKey;
  /** Present only when the read was asked for the parties too; each absent when gone. */
  readonly parties?: KeyParties;
}

export interface KeyParties {
  readonly client?: Client;
  readonly user?: User;
  /** When the read named an environment: it, and whether the user holds it now. */
  readonly environment?: { readonly id: string; readonly granted: boolean };
}

export interface ApiKeyExchangeStore {
  /** Strongly consistent; a record past its TTL is absent. */
  get(keyId: string): Promise<ApiKey | undefined>;
  /**
   * The key, and with `bound` also its client and user, in one strongly consistent round
   * trip. A revocation, an expiry, an ungranted scope or a deleted user that committed
   * before this read is seen by it.
   */
  readForExchange(keyId: string, bound?: KeyBinding): Promise<ExchangeRead>;
  /** The client and user of a key (and the user's grant of `environmentId`), strongly consistent, in one round trip. */
  readParties(binding: KeyBinding): Promise<KeyParties>;
  /**
   * Sets lastUsedAt to `usedAt` unless it already holds that or a later time; never creates
   * a record that is gone.
   */
  stampLastUsed(keyId: string, usedAt: string): Promise<void>;
}

/** `id-taken`: the generated key id is another key's (64 random bits: should never happen). */
export type CreateOutcome = 'created' | 'user-gone' | 'client-changed' | 'id-taken';

export interface ApiKeyStore extends ApiKeyExchangeStore {
  /**
   * Behaviour KEY-15: one transaction writing the key and its per-user index item `pending`:
   * absent to every reader until activated. An error means its outcome is unknown.
   */
  writePending(key: ApiKey): Promise<CreateOutcome>;
  /**
   * Pending → active with the `api_key.create` audit entry, in one transaction; an unknown
   * outcome is resolved by sending it again with the same request token. An error means the
   * database answered none of those sends.
   */
  activate(key: ApiKey, audit: AuditEntry): Promise<CreateOutcome>;
  /** One transaction with the audit entry; false (and nothing written) when already revoked or gone. */
  revoke(key: ApiKey, revokedAt: string, audit: AuditEntry): Promise<boolean>;
  listByClient(clientId: string, limit: number, cursor?: string): Promise<ListRead<ApiKey>>;
  listByClientAndUser(clientId: string, userId: string, limit: number, cursor?: string): Promise<ListRead<ApiKey>>;
  /** Behaviour DASH-18: the user's keys across clients, newest first, at most `limit`; `more` when there may be others. */
  listOfUser(userId: string, limit: number): Promise<{ readonly items: readonly ApiKey[]; readonly more: boolean }>;
}

export interface ExchangeDependencies extends TokenDependencies {
  readonly store: ApiKeyExchangeStore;
  /** DCR_ENVIRONMENT_ID: the environment a dynamic client's users must hold. */
  readonly dcrEnvironmentId?: string;
  /** Writes the issued-token record and the activity row together (one batch, as client_credentials does). */
  readonly recordIssued: (issuance: Issuance) => Promise<void>;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache<KeyBinding>;
  readonly log: Logger;
  /** The scope catalog: a key never mints a scope deleted from it (behaviour ADMIN-18). */
  readonly catalogNames: CatalogNames;
  /** The MFA policy in force: a self-service key is held to it as its creating sign-in would be (behaviour MFA-12). */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
}

export interface ApiKeyAdminDependencies {
  readonly keys: ApiKeyStore;
  readonly clients: { get(clientId: string): Promise<Client | undefined> };
  readonly users: { get(id: string): Promise<User | undefined> };
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
}
