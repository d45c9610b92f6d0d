/** What deciding an authorization (lambdas/core/authorization-decision.ts) reads and writes, from this container. */
import type { AuthorizationDependencies } from '../core/authorization-decision';
import { getContainer } from './container';
import { getEnvironments, getSessions, getTokenStore } from './repositories';
import { getStorage } from './storage';

export const getAuthorizationDependencies = (): AuthorizationDependencies => {
  const { config, clock, random } = getContainer();
  return {
    sessions: getSessions(),
    codes: getTokenStore(),
    environments: getEnvironments(),
    scopes: getStorage().scopes,
    clock,
    random,
    issuer: config.baseUrl,
    dcrEnvironmentId: config.dcr.environmentId,
  };
};
