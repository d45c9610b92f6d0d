/**
 * The route table: the single source of truth for the HTTP surface.
 *
 * - The CDK stack makes one Lambda function and one API Gateway method per row
 *   (lib/authorization-server.ts), with only the grants the row names.
 * - The local server routes with the same rows (lambdas/local/server.ts).
 * - The WAF rate rules are derived from each row's `edge` setting.
 *
 * Adding an endpoint is one row here and one file in lambdas/handlers/.
 * This file is plain data: the CDK app, the local server and the Lambda
 * bundles all import it, so it must stay free of runtime dependencies.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a caller proves who it is; documents the route and drives tests of its refusals. */
export type AuthKind =
  | 'none' // public
  | 'session' // end-user sign-in session cookie
  | 'client' // OAuth client authentication (secret or PKCE, per grant)
  | 'bearer' // a valid access token
  | 'admin' // admin API client token, admin user token, or a qualifying self-service token
  | 'api-key'; // an API key presented for exchange

/** The logical tables of lambdas/adapters/dynamodb/table-definitions.ts. */
export type TableName = 'main' | 'ephemeral' | 'activity';
export type TableAccess = 'read' | 'write';

/** AWS WAF rate-based rules accept only these evaluation windows (seconds). */
export type WafWindowSeconds = 60 | 120 | 300 | 600;

/** A per-client-IP rate rule at the edge (spec section 8). */
export interface EdgeRule {
  /** Requests allowed per window; AWS WAF requires at least 10. */
  readonly limit: number;
  readonly windowSeconds: WafWindowSeconds;
  /** `block` for JSON APIs and mail-sending endpoints; `challenge` only for browser form posts. */
  readonly action: 'block' | 'challenge';
  /** The spec row this rule implements, and how it was fitted to WAF's bounds. */
  readonly rationale: string;
}

export interface Route {
  /** Unique, stable identifier; names the Lambda function and its log group. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, with `{param}` segments. */
  readonly path: string;
  /** File name under lambdas/handlers/, without extension; it exports `handler`. */
  readonly handler: string;
  readonly auth: AuthKind;
  /** DynamoDB access the function is granted, per logical table. */
  readonly tables: Readonly<Partial<Record<TableName, TableAccess>>>;
  /** Reads the private signing key (Secrets Manager in AWS, a file locally). */
  readonly signs?: boolean;
  /** Sends mail (SES in AWS, the outbox folder locally). */
  readonly sendsMail?: boolean;
  /** Verifies or computes Argon2id hashes; the native module ships with the function. */
  readonly hashes?: boolean;
  /** Edge rate rule; absent means no per-route rule (managed rule groups still apply). */
  readonly edge?: EdgeRule;
}

/**
 * Public endpoint paths, relative to the issuer. Discovery advertises them; rows use them.
 * Paths of endpoints not built yet are listed so discovery and the table agree on one spelling.
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
} as const;

export const routes: readonly Route[] = [
  {
    name: 'OAuthServerMetadata',
    method: 'GET',
    path: endpointPaths.authorizationServerMetadata,
    handler: 'oauth-authorization-server-metadata',
    auth: 'none',
    tables: { main: 'read' },
  },
  {
    name: 'OpenIdConfiguration',
    method: 'GET',
    path: endpointPaths.openidConfiguration,
    handler: 'openid-configuration',
    auth: 'none',
    tables: { main: 'read' },
  },
  {
    name: 'Health',
    method: 'GET',
    path: endpointPaths.health,
    handler: 'health',
    auth: 'none',
    tables: {},
  },
];

/**
 * Not a route: API Gateway sends every request that matches no row here
 * (`ANY /{proxy+}` and `ANY` on each routed path), and the local server does the same,
 * so unknown paths get 404 and known paths with another method get 405, in one shape.
 */
export const fallbackHandler = 'fallback';
