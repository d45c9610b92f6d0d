/** What bearer checks and the admin caller check read, from this container. */
import type { AdminAuthDependencies } from '../http/admin-auth';
import type { BearerDependencies } from '../http/bearer';
import { getContainer } from './container';
import { getClientRepository, getTokenStore, getUsers } from './repositories';
import { getVerifier } from './verifier';

export const getBearerDependencies = (): BearerDependencies => ({
  issuer: getContainer().config.baseUrl,
  clock: getContainer().clock,
  verifier: getVerifier,
  tokens: getTokenStore(),
  clients: getClientRepository(),
});

export const getAdminAuthDependencies = (): AdminAuthDependencies => ({ bearer: getBearerDependencies(), users: getUsers() });
