/** The /api/admin/* handler factories bound to this Lambda container (lambdas/http/admin-endpoint.ts). */
import { adminEndpoint, clientKeysEndpoint, type AdminEndpoint } from '../http/admin-endpoint';
import type { LambdaHandler } from '../http/handler';
import { getAdminAuthDependencies } from './bearer';
import { httpHandler } from './handler';

/** /api/admin/*: admin callers only (lambdas/http/admin-auth.ts). */
export const adminHandler = (endpoint: AdminEndpoint): LambdaHandler => httpHandler(adminEndpoint(endpoint, getAdminAuthDependencies));

/** The API-key routes: admin callers and self-service callers of the path's client. */
export const clientKeysHandler = (endpoint: AdminEndpoint): LambdaHandler =>
  httpHandler(clientKeysEndpoint(endpoint, getAdminAuthDependencies));
