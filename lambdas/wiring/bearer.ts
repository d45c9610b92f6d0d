/** What bearer checks and the admin caller check read, from this container. */
import type { AdminAuthDependencies } from '../http/admin-auth';
import type { BearerDependencies } from '../http/bearer';
import { getContainer } from './container';
import { getDpopDependencies } from './dpop';
import { getClientRepository, getTokenStore, getUsers } from './repositories';
import { getSite } from './site';
import { getVerifier } from './verifier';

export const getBearerDependencies = (): BearerDependencies => ({
  issuer: getContainer().config.baseUrl,
  clock: getContainer().clock,
  verifier: getVerifier,
  tokens: getTokenStore(),
  clients: getClientRepository(),
  users: getUsers(),
});

/** The bearer check of an endpoint that also takes `Authorization: DPoP` with a proof (behaviour BEARER-5; its row puts `usedIdentifier`). */
export const getDpopBearerDependencies = (): BearerDependencies => ({ ...getBearerDependencies(), dpop: getDpopDependencies() });

export const getAdminAuthDependencies = (): AdminAuthDependencies => ({
  // Behaviour BEARER-5: an admin client's or admin user's DPoP-bound token, with its proof.
  bearer: getDpopBearerDependencies(),
  // As the token endpoint reads it (at most a second old): behaviour MFA-11 holds tokens to it as REFRESH-6 does.
  mfaPolicy: () => getSite().tokenMfaPolicy(),
});
