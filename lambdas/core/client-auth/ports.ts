/**
 * The client-authentication room's ports: the client record as stored now, so a deleted client is
 * refused at once (behaviour ADMIN-16). The client repository's lookup satisfies it; the hasher
 * and the verified-secret cache are the core's own (core/ports.ts, core/verified-secret-cache.ts).
 * Every method's check is handed the same three.
 */
import type { Client } from '../model';
import type { Hasher } from '../ports';
import type { VerifiedSecretCache } from '../verified-secret-cache';

export type FindClient = (clientId: string) => Promise<Client | undefined>;

export interface ClientAuthDependencies {
  readonly findClient: FindClient;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache;
}
