/** What the trusted-issuer room needs from storage (lambdas/adapters/dynamodb/trusted-issuer-store.ts). */
import type { CatalogCheck, Page, ScopeHolders } from '../admin/ports';
import type { AdminAuditEntry } from '../model';
import type { TrustedIssuer } from './model';

/**
 * The token path's lookups (behaviour TRUST-2): each one GetItem by key, no scan. An issuer is
 * trusted for id-jag per environment (the client names the environment); a workload token names
 * no client, so an issuer URL is a workload issuer in at most one environment.
 */
export interface TrustedIssuerLookup {
  idJagIssuer(environmentId: string, issuer: string): Promise<TrustedIssuer | undefined>;
  workloadIssuer(issuer: string): Promise<TrustedIssuer | undefined>;
}

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
