/** What client authentication reads: the client record, the hasher and the verified-secret cache. */
import type { Client } from '../model';
import type { Hasher } from '../ports';
import type { VerifiedSecretCache } from '../verified-secret-cache';

export interface ClientAuthDependencies {
  /** The record as stored now: a deleted client is refused at once (behaviour ADMIN-16). */
  readonly findClient: (clientId: string) => Promise<Client | undefined>;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache;
}
