/**
 * Public endpoint paths, relative to the issuer: discovery advertises them, pages link and
 * post to them, and the route table (lambdas/routes.ts) uses them for its rows. Kept in the
 * domain so that code which only needs a path does not bundle the whole route table.
 */
export const endpointPaths = {
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  health: '/api/health',
  authorize: '/api/authorize',
  token: '/api/token',
  apiKeyToken: '/api/token/api-key',
  introspect: '/api/token/introspect',
  revoke: '/api/token/revoke',
  register: '/api/register',
  userinfo: '/api/userinfo',
  validate: '/api/token/validate',
  signIn: '/api/auth/signin',
  signOut: '/api/auth/signout',
  session: '/api/auth/session',
  authorizeComplete: '/api/authorize/complete',
  pushedAuthorizationRequest: '/api/par',
} as const;
