/**
 * What API keys need from storage and the directory, as small interfaces; the DynamoDB
 * store (lambdas/adapters/dynamodb/api-key-store.ts) satisfies them structurally.
 */
import type { Page } from '../admin/ports';
import type { Issuance } from '../grants/ports';
import type { ApiKey, AuditEntry, Client, User } from '../model';
import type { Clock, Hasher, Mailer, RandomSource } from '../ports';
import type { TokenDependencies } from '../tokens';
import type { VerifiedSecretCache } from '../verified-secret-cache';

/**
 * Why the exchange's write did not commit: the key stopped being active, the client no
 * longer grants a minted scope (or is gone), the bound user is gone, or the write kept
 * colliding with concurrent writes to the same key.
 */
export type ExchangeOutcome =
  | { readonly kind: 'recorded' }
  | { readonly kind: 'key-changed' }
  | { readonly kind: 'client-changed' }
  | { readonly kind: 'user-gone' }
  | { readonly kind: 'contended' };

export interface KeyExchangeWrite {
  readonly usedAt: string;
  /** The minted scopes: the client must still grant each of them when the write commits. */
  readonly scopes: readonly string[];
  /** Spec 2.4: a test user may be bound only to a test client; checked on the user when the write commits. */
  readonly clientIsTest: boolean;
  readonly issuance: Issuance;
}

export interface ApiKeyExchangeStore {
  /** Strongly consistent; a record past its TTL is absent. */
  get(keyId: string): Promise<ApiKey | undefined>;
  /**
   * One transaction: stamp lastUsedAt only while the key is active, check the client still
   * grants the scopes and the user exists, and write the token record and activity row.
   */
  recordExchange(key: ApiKey, write: KeyExchangeWrite): Promise<ExchangeOutcome>;
}

export type CreateOutcome = 'created' | 'user-gone' | 'client-changed';

export interface ApiKeyStore extends ApiKeyExchangeStore {
  /** One transaction: the key, its per-user index item and the audit entry. */
  create(key: ApiKey, audit: AuditEntry): Promise<CreateOutcome>;
  /** One transaction with the audit entry; false (and nothing written) when already revoked or gone. */
  revoke(key: ApiKey, revokedAt: string, audit: AuditEntry): Promise<boolean>;
  listByClient(clientId: string, limit: number, cursor?: string): Promise<Page<ApiKey>>;
  listByClientAndUser(clientId: string, userId: string, limit: number, cursor?: string): Promise<Page<ApiKey>>;
}

export interface ExchangeDependencies extends TokenDependencies {
  readonly store: ApiKeyExchangeStore;
  /** The hot-path lookup (cached briefly); the exchange's transaction re-checks what matters. */
  readonly findClient: (clientId: string) => Promise<Client | undefined>;
  /** A fresh read, used when the transaction found the cached client out of date. */
  readonly loadClient: (clientId: string) => Promise<Client | undefined>;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache;
}

export interface ApiKeyAdminDependencies {
  readonly keys: ApiKeyStore;
  readonly clients: { get(clientId: string): Promise<Client | undefined> };
  readonly users: { get(id: string): Promise<User | undefined> };
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** Self-service creation also mails the bound user (spec 3.1). */
export interface ApiKeyCreateDependencies extends ApiKeyAdminDependencies {
  readonly mailer: Mailer;
}
