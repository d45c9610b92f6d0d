/** What the JWT-bearer grant reads of trusted issuers; the admin use cases' store is in admin/ports.ts. */
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
