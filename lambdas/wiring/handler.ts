/**
 * Handler factories bound to this Lambda container: every handler module builds its export
 * with these, so lambdas/http stays free of per-container state.
 */
import { adminEndpoint, clientKeysEndpoint, type AdminEndpoint } from '../http/admin-endpoint';
import { createHttpHandler, type Endpoint, type LambdaHandler } from '../http/handler';
import { getAdminAuthDependencies } from './authentication';
import { getContainer } from './container';

export const httpHandler = (endpoint: Endpoint): LambdaHandler => createHttpHandler(endpoint, getContainer);

/** /api/admin/*: admin callers only (lambdas/http/admin-auth.ts). */
export const adminHandler = (endpoint: AdminEndpoint): LambdaHandler => httpHandler(adminEndpoint(endpoint, getAdminAuthDependencies));

/** The API-key routes: admin callers and self-service callers of the path's client. */
export const clientKeysHandler = (endpoint: AdminEndpoint): LambdaHandler =>
  httpHandler(clientKeysEndpoint(endpoint, getAdminAuthDependencies));
