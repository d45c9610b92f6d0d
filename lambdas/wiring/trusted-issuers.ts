/** Trusted issuers: the JWT-bearer grant's cached lookups and the admin use cases' store. */
import { DynamoTrustedIssuerStore } from '../adapters/dynamodb/trusted-issuer-store';
import { cachedTrustedIssuerLookup } from '../core/trusted-issuers/lookup-cache';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

/** Remembered per container: a deleted or changed issuer counts for at most 30 s more (behaviour TRUST-2, lookup-cache.ts). */
export const getTrustedIssuerLookup = /* @__PURE__ */ perContainer(() =>
  cachedTrustedIssuerLookup(new DynamoTrustedIssuerStore(getStorage().db, getStorage().tables.main), getContainer().clock),
);

/** With the activity table: every change is written with its audit entry (behaviour LOG-9). */
export const getTrustedIssuerStore = /* @__PURE__ */ perContainer(
  () => new DynamoTrustedIssuerStore(getStorage().db, getStorage().tables.main, getStorage().tables.activity),
);
