/**
 * The client-authentication room's ports: the client record as stored now, so a deleted client is
 * refused at once (behaviour ADMIN-16). The client repository's lookup satisfies it; the hasher
 * and the verified-secret cache are the core's own (core/ports.ts, core/verified-secret-cache.ts).
 * Every method's check is handed the same ones.
 */
import type { JwtAssertionVerifier } from '../jwt-assertions';
import type { Client } from '../model';
import type { Clock, Hasher, SingleUseIds } from '../ports';
import type { VerifiedSecretCache } from '../verified-secret-cache';

export type FindClient = (clientId: string) => Promise<Client | undefined>;

export interface ClientAuthDependencies {
  readonly findClient: FindClient;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache;
  /** When a rotated-out secret stops working (behaviour ADMIN-20). */
  readonly clock: Clock;
  readonly assertions: ClientAssertionDependencies;
}

/** private_key_jwt (behaviour TOKEN-6): the signature check, the jti store, and who an assertion may be addressed to. */
export interface ClientAssertionDependencies {
  readonly verifier: JwtAssertionVerifier;
  readonly singleUseIds: SingleUseIds;
  /** This server's issuer, its token endpoint URL and the URL of the endpoint being called. */
  readonly audiences: readonly string[];
}
