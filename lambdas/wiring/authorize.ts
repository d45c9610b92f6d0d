/** What the authorization steps (lambdas/presentation/authorize-flow.ts) read and write, from this container. */
import type { AuthorizeFlowDependencies } from '../presentation/authorize-flow';
import { getEnvironments, getSessions, getTokenStore } from './repositories';
import { getBrand } from './site';
import { getStorage } from './storage';

export const getAuthorizeFlowDependencies = (): AuthorizeFlowDependencies => ({
  sessions: getSessions(),
  codes: getTokenStore(),
  environments: getEnvironments(),
  scopes: getStorage().scopes,
  brand: getBrand,
});
