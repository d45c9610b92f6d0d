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

import { endpointPaths } from './core/paths';
import { accountPaths } from './core/account/paths';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Every route function's timeout (lib/functions.ts), and the time the local server gives a request
 * (lambdas/local/server.ts): AWS calls give up a second before it (adapters/aws/invocation-deadline.ts),
 * so a stalled dependency is answered with a 503, never a timeout. Well under API Gateway's 29 s.
 */
export const routeTimeoutSeconds = 10;

/** How a caller proves who it is; documents the route and drives tests of its refusals. */
export type AuthKind =
  | 'none' // public
  | 'session' // end-user sign-in session cookie
  | 'client' // OAuth client authentication (secret or PKCE, per grant)
  | 'bearer' // a valid access token
  | 'admin' // admin API client token, admin user token, or a qualifying self-service token
  | 'api-key'; // an API key presented for exchange

/**
 * The logical tables of lambdas/adapters/dynamodb/table-definitions.ts. Rows that look
 * clients up write `main`: resolving a Client ID Metadata Document stores the client, and a
 * dynamic client's first token request clears its expiry.
 */
export type TableName = 'main' | 'ephemeral' | 'activity';
export type TableAccess = 'read' | 'write';

/** AWS WAF rate-based rules accept only these evaluation windows (seconds). */
export type WafWindowSeconds = 60 | 120 | 300 | 600;

/** A per-client-IP rate rule at the edge (behaviour EDGE-1..EDGE-4). */
export interface EdgeRule {
  /** Requests allowed per window; AWS WAF requires at least 10. */
  readonly limit: number;
  readonly windowSeconds: WafWindowSeconds;
  /** `block` for JSON APIs and mail-sending endpoints; `challenge` only for browser form posts. */
  readonly action: 'block' | 'challenge';
  /** The rule of docs/behaviour/limits.md this implements (its id, e.g. `EDGE-1`), and how it was fitted to WAF's bounds. */
  readonly rationale: string;
  /**
   * Counted together with the other rows of the same `name`, per address, by one WAF rule
   * (behaviour EDGE-7); the rows must agree on limit, window and action. With `pathPrefixes` the
   * rule counts every request under them, whatever its method (a row added there later is covered
   * too); without, the rows' own methods and paths. A row without `shared` is counted on its own,
   * by the rule of its limit, window and action, which keeps one counter per address and path
   * (AWS WAF allows 10 rate-based rules in a web ACL, so rows share rules, not counters).
   */
  readonly shared?: { readonly name: string; readonly pathPrefixes?: readonly string[] };
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
  /** Signs tokens: reads the signing key set (Secrets Manager in AWS, a file locally). */
  readonly signs?: boolean;
  /**
   * Verifies this server's access tokens, against the public JWKS on the CDN (in AWS) like
   * any resource server: such a function gets no access to the private key set.
   */
  readonly verifiesTokens?: boolean;
  /** Sends mail (SES in AWS, the outbox folder locally). */
  readonly sendsMail?: boolean;
  /**
   * Reads or renews the browser's device cookie (behaviour PWFAIL-3): reads the device-cookie key
   * (a Secrets Manager secret in AWS, loaded on first use; a file locally; PWFAIL-6).
   */
  readonly deviceCookies?: boolean;
  /** Verifies or computes Argon2id hashes; the native module ships with the function. */
  readonly hashes?: boolean;
  /**
   * Runs work off the request path by invoking its own function asynchronously (may call
   * lambda:InvokeFunction on itself; lambdas/wiring/background.ts).
   */
  readonly invokesSelf?: boolean;
  /**
   * Callable from any origin, without credentials (behaviour HTTP-6): API Gateway and the local
   * server answer its preflight; the handler passes `{ crossOrigin: true }` to add the headers.
   * Only for endpoints authenticated by PKCE, client authentication or bearer tokens, never cookies.
   */
  readonly crossOrigin?: boolean;
  /**
   * Edge rate rule, its own or shared with other rows (`edge.shared`). Every row has one
   * (behaviour EDGE-7; test/infra/edge-evidence.test.ts checks it).
   */
  readonly edge?: EdgeRule;
  /**
   * The body may be larger than the 8 KB the AWS managed common rule set's
   * `SizeRestrictions_BODY` blocks: the web ACL lets this row's method and path through that
   * one rule, and only it (behaviour EDGE-6, lib/web-acl.ts). The service bounds the body itself.
   */
  readonly largeBody?: { readonly maxBytes: number; readonly rationale: string };
  /**
   * Writes and deletes the site logo under `branding/` of the JWKS bucket (S3 in AWS, granted
   * that prefix only; `<DATA_DIR>/assets` locally).
   */
  readonly writesSiteAssets?: boolean;
  /**
   * End users call it with their own token (self-service API keys, behaviour KEYM-2), although
   * its path is under `/api/admin/`: the admin IP allowlist lets exactly this method and path
   * through (behaviour EDGE-4, lib/web-acl.ts).
   */
  readonly selfService?: boolean;
}

// The paths the domain needs (discovery, page links) are defined in lambdas/core/paths.ts;
// the rows below use them so both spell each path once.
export { endpointPaths };

const none = {} as const;
const adminTables = { main: 'write', ephemeral: 'write', activity: 'write' } as const;

// Behaviour EDGE-7: every row is limited at the edge. Rows without a rate of their own in the
// original spec are counted together per address, one shared rule per kind.
/**
 * Light limiting only (behaviour EDGE-2): discovery, the OpenAPI document, health, userinfo and
 * validate, and the pages a browser loads; counted together, far above what a client or a
 * resource server needs.
 */
const lightEdge: EdgeRule = {
  limit: 1200,
  windowSeconds: 60,
  action: 'block',
  rationale:
    'EDGE-2: light limiting only (20 a second per address, counted together): discovery, health, userinfo, validate and the pages; Block (429)',
  shared: { name: 'Light' },
};
/** The admin plane: the admin API and the dashboard, every method (behaviour EDGE-4 restricts who reaches it). */
const adminPlaneEdge: EdgeRule = {
  limit: 300,
  windowSeconds: 60,
  action: 'block',
  rationale: 'EDGE-7: the admin API and the dashboard, every method and id, counted together (5 a second per address); Block (429)',
  shared: { name: 'AdminPlane', pathPrefixes: ['/api/admin/', '/dashboard'] },
};
/** The authorization's sign-in and consent posts: the original spec's one row. */
const authorizeEdge: EdgeRule = {
  limit: 30,
  windowSeconds: 60,
  action: 'challenge',
  rationale:
    'EDGE-1: POST /api/authorize, /api/authorize/complete about 30 / 1 minute, counted together as the original spec lists them; a browser form, so Challenge',
  shared: { name: 'Authorize' },
};

/** The admin API: bearer tokens of admin clients or admin users (behaviour ADMIN-1). */
const admin = (name: string, method: HttpMethod, path: string, handler: string, extra: Partial<Route> = {}): Route => ({
  name,
  method,
  path,
  handler: `admin/${handler}`,
  auth: 'admin',
  tables: adminTables,
  verifiesTokens: true,
  edge: adminPlaneEdge,
  ...extra,
});

export const routes: readonly Route[] = [
  {
    name: 'OAuthServerMetadata',
    method: 'GET',
    path: endpointPaths.authorizationServerMetadata,
    handler: 'oauth-authorization-server-metadata',
    auth: 'none',
    tables: { main: 'read' },
    crossOrigin: true,
    edge: lightEdge,
  },
  {
    name: 'OpenIdConfiguration',
    method: 'GET',
    path: endpointPaths.openidConfiguration,
    handler: 'openid-configuration',
    auth: 'none',
    tables: { main: 'read' },
    crossOrigin: true,
    edge: lightEdge,
  },
  // The OpenAPI document of this surface (issue 15; bin/openapi.ts generates it).
  {
    name: 'OpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    handler: 'openapi-document',
    auth: 'none',
    tables: none,
    crossOrigin: true,
    edge: lightEdge,
  },
  {
    name: 'Health',
    method: 'GET',
    path: endpointPaths.health,
    handler: 'health',
    auth: 'none',
    tables: none,
    edge: lightEdge,
  },
  // Dynamic client registration (behaviour REG-1..REG-5, RFC 7591).
  {
    name: 'Register',
    method: 'POST',
    path: endpointPaths.register,
    handler: 'register',
    auth: 'none',
    tables: { main: 'write', ephemeral: 'write' },
    crossOrigin: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: POST /api/register about 10 / 1 minute; JSON API, so Block (429)',
    },
  },
  // Sign-in (behaviour SIGNIN-1..SIGNIN-8 /api/auth/*): a server-rendered page and its form post.
  // Reads the site settings (title, logo; issue 14), cached a minute per container.
  {
    name: 'SignInPage',
    method: 'GET',
    path: endpointPaths.signIn,
    handler: 'sign-in-page',
    auth: 'none',
    tables: { main: 'read' },
    edge: lightEdge,
  },
  {
    name: 'SignIn',
    method: 'POST',
    path: endpointPaths.signIn,
    handler: 'sign-in',
    auth: 'none',
    tables: { main: 'read', ephemeral: 'write' },
    hashes: true,
    sendsMail: true, // the sign-in code (issue 12), only after a correct password
    // The owner's mail of a tripped password ceiling goes off the request path (behaviour PWFAIL-5).
    invokesSelf: true,
    deviceCookies: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale: 'EDGE-1: POST /api/auth/* about 10 / 1 minute; a browser form, so Challenge',
    },
  },
  {
    name: 'SignOut',
    method: 'POST',
    path: endpointPaths.signOut,
    handler: 'sign-out',
    auth: 'session',
    tables: { ephemeral: 'write' },
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale: 'EDGE-1: POST /api/auth/* about 10 / 1 minute; a browser form, so Challenge',
    },
  },
  {
    name: 'Session',
    method: 'GET',
    path: endpointPaths.session,
    handler: 'session',
    auth: 'session',
    tables: { main: 'read', ephemeral: 'read' },
    edge: lightEdge,
  },
  // Authorization (behaviour AUTHZ-1..AUTHZ-11): the request, the sign-in step, the consent step.
  {
    name: 'Authorize',
    method: 'GET',
    path: endpointPaths.authorize,
    handler: 'authorize',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    edge: lightEdge,
  },
  {
    name: 'AuthorizeSignIn',
    method: 'POST',
    path: endpointPaths.authorize,
    handler: 'authorize-sign-in',
    auth: 'none',
    tables: { main: 'write', ephemeral: 'write' },
    hashes: true,
    sendsMail: true, // the sign-in code (issue 12), only after a correct password
    invokesSelf: true, // as SignIn: the ceiling notice (behaviour PWFAIL-5)
    deviceCookies: true,
    edge: authorizeEdge,
  },
  {
    name: 'AuthorizeComplete',
    method: 'POST',
    path: endpointPaths.authorizeComplete,
    handler: 'authorize-complete',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    edge: authorizeEdge,
  },
  // Tokens (behaviour TOKEN-1, INTRO-1, REVOKE-1): grants, introspection (RFC 7662), revocation (RFC 7009).
  {
    name: 'Token',
    method: 'POST',
    path: endpointPaths.token,
    handler: 'token',
    auth: 'client',
    tables: { main: 'write', ephemeral: 'write', activity: 'write' },
    crossOrigin: true,
    signs: true,
    hashes: true,
    edge: {
      limit: 30,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: POST /api/token about 30 / 1 minute; JSON API, so Block (429)',
    },
  },
  // API-key exchange (behaviour KEYX-1): not an OAuth grant, so apart from /api/token. It reads the
  // key, client and user from main, writes the token record (ephemeral) and activity row in one
  // batch, and stamps the key's lastUsedAt (main).
  {
    name: 'ApiKeyToken',
    method: 'POST',
    path: endpointPaths.apiKeyToken,
    handler: 'api-key-token',
    auth: 'api-key',
    tables: { main: 'write', ephemeral: 'write', activity: 'write' },
    signs: true,
    hashes: true,
    edge: {
      limit: 30,
      windowSeconds: 60,
      action: 'block',
      rationale:
        'EDGE-1: POST /api/token about 30 / 1 minute, applied to the key exchange (a token endpoint; slows key guessing); JSON API, so Block (429)',
    },
  },
  {
    name: 'Introspect',
    method: 'POST',
    path: endpointPaths.introspect,
    handler: 'introspect',
    auth: 'client',
    tables: { main: 'write', ephemeral: 'read' },
    verifiesTokens: true,
    hashes: true,
    edge: {
      limit: 300,
      windowSeconds: 60,
      action: 'block',
      rationale:
        'EDGE-1 (added): client authentication costs an Argon2id verification even for unknown clients; resource servers may call often, so a generous ceiling',
    },
  },
  {
    name: 'Revoke',
    method: 'POST',
    path: endpointPaths.revoke,
    handler: 'revoke',
    auth: 'client',
    tables: { main: 'write', ephemeral: 'write' },
    crossOrigin: true,
    hashes: true,
    edge: {
      limit: 30,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: as POST /api/token, about 30 / 1 minute; client authentication costs an Argon2id verification',
    },
  },
  // Bearer-protected (behaviour BEARER-1).
  {
    name: 'UserInfo',
    method: 'GET',
    path: endpointPaths.userinfo,
    handler: 'userinfo',
    auth: 'bearer',
    tables: { main: 'read', ephemeral: 'read' },
    crossOrigin: true,
    verifiesTokens: true,
    edge: lightEdge,
  },
  {
    name: 'ValidateToken',
    method: 'GET',
    path: endpointPaths.validate,
    handler: 'validate-token',
    auth: 'bearer',
    // main: the user of a sign-in's token, against whose password version its family is checked (behaviour BEARER-1).
    tables: { main: 'read', ephemeral: 'read' },
    verifiesTokens: true,
    edge: lightEdge,
  },
  // Account security by mail (issue 12; behaviour MFA-1..MFA-8, VERIFY-1..VERIFY-6,
  // RESET-1..RESET-7): the sign-in code, email verification, password reset. Rows that send mail
  // Block at the edge (behaviour EDGE-5); Challenge only where the post is a browser form that
  // sends none. Where a row's rate (behaviour EDGE-1) is under WAF's floor (about 5 / 5 minutes),
  // the row states the fitted 10 / 600 s (behaviour EDGE-3) and the service enforces the rest
  // (behaviour LIMIT-4).
  {
    name: 'SignInCode',
    method: 'POST',
    path: accountPaths.signInCode,
    handler: 'sign-in-code',
    auth: 'none',
    tables: { main: 'write', ephemeral: 'write' },
    hashes: true,
    deviceCookies: true, // the completed sign-in renews it (behaviour PWFAIL-3)
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale: 'EDGE-1: POST /api/auth/* about 10 / 1 minute; a browser form that sends no mail, so Challenge',
    },
  },
  {
    name: 'SignInCodeResend',
    method: 'POST',
    path: accountPaths.signInCodeResend,
    handler: 'sign-in-code-resend',
    auth: 'none',
    tables: { main: 'read', ephemeral: 'write' },
    hashes: true,
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: POST /api/auth/* about 10 / 1 minute; sends mail, so Block (the service allows one a minute per user)',
    },
  },
  {
    // Issue 26 (behaviour MFA-10): the first code for a session the MFA policy now asks a second
    // factor of; the code is then entered at SignInCode. Reads the session and its user, mails.
    name: 'SignInStepUp',
    method: 'POST',
    path: accountPaths.stepUp,
    handler: 'sign-in-step-up',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    hashes: true,
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: POST /api/auth/* about 10 / 1 minute; sends mail, so Block (the service allows ten codes an hour per user)',
    },
  },
  {
    name: 'EmailVerificationRequest',
    method: 'POST',
    path: accountPaths.emailVerificationRequest,
    handler: 'email-verification-request',
    auth: 'session',
    tables: { main: 'read', ephemeral: 'write' },
    verifiesTokens: true,
    hashes: true,
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale:
        'EDGE-1: about 5 / 5 minutes, fitted to WAF as 10 / 600 s (same rate); sends mail, so Block; the service allows 1 a minute, 5 an hour per user',
    },
  },
  {
    name: 'EmailVerificationVerify',
    method: 'POST',
    path: accountPaths.emailVerificationVerify,
    handler: 'email-verification-verify',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    verifiesTokens: true,
    hashes: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale:
        'EDGE-1: about 10 / 5 minutes, deployed as 10 / 600 s (stricter, to share the rule of the other 10 / 600 s rows; WAF allows 10 rate rules); JSON, so Block (429)',
    },
  },
  {
    name: 'ForgotPasswordPage',
    method: 'GET',
    path: accountPaths.forgotPassword,
    handler: 'forgot-password-page',
    auth: 'none',
    tables: { main: 'read' }, // the site's title and logo (issue 14)
    edge: lightEdge,
  },
  {
    name: 'ForgotPassword',
    method: 'POST',
    path: accountPaths.forgotPassword,
    handler: 'forgot-password',
    auth: 'none',
    // The request counts sends (ephemeral); its background half reads the user and stores the link.
    tables: { main: 'read', ephemeral: 'write' },
    sendsMail: true,
    invokesSelf: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale:
        'EDGE-1: POST /forgot-password about 5 / 5 minutes, fitted to WAF as 10 / 600 s (same rate); sends mail, so Block; the service allows 1 a minute, 5 an hour per address',
    },
  },
  {
    name: 'ResetPasswordPage',
    method: 'GET',
    path: accountPaths.resetPassword,
    handler: 'reset-password-page',
    auth: 'none',
    tables: { main: 'read', ephemeral: 'read' },
    edge: lightEdge,
  },
  {
    name: 'ResetPassword',
    method: 'POST',
    path: accountPaths.resetPassword,
    handler: 'reset-password',
    auth: 'none',
    tables: { main: 'write', ephemeral: 'write' },
    hashes: true,
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale: 'EDGE-1: POST /reset-password about 5 / 5 minutes, fitted to WAF as 10 / 600 s (same rate); sends mail, so Block',
    },
  },
  {
    // Behaviour RESET-9, RESET-13: the reset completion's "Remove all" (passkeys and self-service
    // API keys), authenticated by its recovery proof.
    name: 'ResetPasskeysRemove',
    method: 'POST',
    path: accountPaths.resetPasskeysRemove,
    handler: 'reset-passkeys-remove',
    auth: 'none',
    // activity: the api_key.revoke audit entries of the revoked self-service keys (behaviour RESET-13).
    tables: { main: 'write', ephemeral: 'write', activity: 'write' },
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale: 'EDGE-1: one post per completed reset, fitted to WAF as 10 / 600 s like POST /reset-password; sends mail, so Block',
    },
  },
  // Passkeys (issue 13; behaviour PASSKEY-1..PASSKEY-9). Spec 8: about 20 a minute on the passkey paths.
  {
    name: 'PasskeysPage',
    method: 'GET',
    path: accountPaths.passkeys,
    handler: 'passkeys-page',
    auth: 'session',
    // Reads the session and the passkeys, stores the page's registration ceremony.
    tables: { main: 'read', ephemeral: 'write' },
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale:
        'EDGE-1: passkey paths about 20 / 1 minute, deployed as the sign-in forms are: Challenge from 10, Block at 30; a browser page',
    },
  },
  {
    name: 'PasskeyRegister',
    method: 'POST',
    path: accountPaths.passkeyRegister,
    handler: 'passkey-register',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale:
        'EDGE-1: POST /api/users/passkey/verify about 20 / 1 minute, deployed as the sign-in forms are: Challenge from 10, Block at 30; a browser form post that mails only a recently signed-in user (EDGE-5)',
    },
  },
  {
    name: 'PasskeyRemove',
    method: 'POST',
    path: accountPaths.passkeyRemove,
    handler: 'passkey-remove',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write' },
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale:
        'EDGE-1: passkey paths about 20 / 1 minute, deployed as the sign-in forms are: Challenge from 10, Block at 30; a browser form post that mails only a recently signed-in user (EDGE-5)',
    },
  },
  {
    name: 'PasskeySignInOptions',
    method: 'POST',
    path: accountPaths.passkeySignInOptions,
    handler: 'passkey-sign-in-options',
    auth: 'none',
    tables: { ephemeral: 'write' },
    edge: {
      limit: 30,
      windowSeconds: 60,
      action: 'block',
      rationale:
        "EDGE-1: passkey paths about 20 / 1 minute, deployed as 30 / 1 minute (the token endpoints' rule; one ceremony per sign-in); JSON (fetch), so Block",
    },
  },
  {
    name: 'PasskeySignIn',
    method: 'POST',
    path: accountPaths.passkeySignIn,
    handler: 'passkey-sign-in',
    auth: 'none',
    // Records the passkey's use (counter), consumes the ceremony, starts the session, may issue a code.
    tables: { main: 'write', ephemeral: 'write' },
    deviceCookies: true, // the completed sign-in renews it (behaviour PWFAIL-3)
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale:
        'EDGE-1: POST /api/auth/passkey/verify about 20 / 1 minute, deployed as the sign-in forms are: Challenge from 10, Block at 30; a browser form post that sends no mail',
    },
  },
  admin('AdminListUserPasskeys', 'GET', '/api/admin/users/{user_id}/passkeys', 'user-passkeys-list'),
  admin('AdminRemoveUserPasskey', 'DELETE', '/api/admin/users/{user_id}/passkeys/{credential_id}', 'user-passkeys-remove', {
    sendsMail: true,
  }),
  // Behaviour ADMIN-17: an admin mails a user a reset link.
  admin('AdminSendPasswordReset', 'POST', '/api/admin/users/{user_id}/password-reset', 'users-password-reset', { sendsMail: true }),
  // Admin API (behaviour ADMIN-1..ADMIN-16 /api/admin/*).
  admin('AdminListUsers', 'GET', '/api/admin/users', 'users-list'),
  admin('AdminCreateUser', 'POST', '/api/admin/users', 'users-create', { hashes: true }),
  admin('AdminGetUser', 'GET', '/api/admin/users/{user_id}', 'users-get'),
  admin('AdminUpdateUser', 'PATCH', '/api/admin/users/{user_id}', 'users-update', { hashes: true, sendsMail: true }),
  admin('AdminDeleteUser', 'DELETE', '/api/admin/users/{user_id}', 'users-delete'),
  admin('AdminListUserEnvironments', 'GET', '/api/admin/users/{user_id}/environments', 'user-environments-list'),
  admin('AdminGrantEnvironment', 'PUT', '/api/admin/users/{user_id}/environments/{environment_id}', 'user-environments-grant'),
  admin('AdminRevokeEnvironment', 'DELETE', '/api/admin/users/{user_id}/environments/{environment_id}', 'user-environments-revoke'),
  admin('AdminListEnvironments', 'GET', '/api/admin/environments', 'environments-list'),
  admin('AdminCreateEnvironment', 'POST', '/api/admin/environments', 'environments-create'),
  admin('AdminDeleteEnvironment', 'DELETE', '/api/admin/environments/{environment_id}', 'environments-delete'),
  admin('AdminListScopes', 'GET', '/api/admin/scopes', 'scopes-list'),
  admin('AdminCreateScope', 'POST', '/api/admin/scopes', 'scopes-create'),
  admin('AdminDeleteScope', 'DELETE', '/api/admin/scopes/{name}', 'scopes-delete'),
  admin('AdminListClients', 'GET', '/api/admin/clients', 'clients-list'),
  admin('AdminCreateClient', 'POST', '/api/admin/clients', 'clients-create', { hashes: true }),
  admin('AdminGetClient', 'GET', '/api/admin/clients/{client_id}', 'clients-get'),
  admin('AdminUpdateClient', 'PATCH', '/api/admin/clients/{client_id}', 'clients-update'),
  admin('AdminDeleteClient', 'DELETE', '/api/admin/clients/{client_id}', 'clients-delete'),
  // API keys (behaviour KEYM-1..KEYM-7): admin or self-service callers. Bearer checks read main and
  // ephemeral; create hashes the secret and mails self-service users; create and revoke
  // write the audit entry (activity) with the key change.
  admin('AdminCreateApiKey', 'POST', '/api/admin/clients/{client_id}/api-keys', 'api-keys-create', {
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
    hashes: true,
    sendsMail: true,
    selfService: true,
  }),
  admin('AdminListApiKeys', 'GET', '/api/admin/clients/{client_id}/api-keys', 'api-keys-list', {
    tables: { main: 'read', ephemeral: 'read' },
    selfService: true,
  }),
  admin('AdminRevokeApiKey', 'DELETE', '/api/admin/clients/{client_id}/api-keys/{key_id}', 'api-keys-revoke', {
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
    selfService: true,
  }),
  // Issue 14: the admin dashboard (behaviour DASH-1..DASH-6), one router for every page and form below
  // /dashboard, in three functions so each bundles only the clients its rows call (lambdas/wiring/dashboard.ts);
  // the admin allowlist at the edge covers /dashboard* (behaviour EDGE-4). Pages read (dashboard-pages);
  // forms write (with the audit entry), hash (new client secrets, passwords, API keys) and mail
  // (reset links, passkey removal) (dashboard); the logo row writes branding/* (dashboard-logo).
  {
    name: 'DashboardHome',
    method: 'GET',
    path: '/dashboard',
    handler: 'dashboard-pages',
    auth: 'session',
    tables: { main: 'read', ephemeral: 'read', activity: 'read' },
    edge: adminPlaneEdge,
  },
  {
    name: 'DashboardPage',
    method: 'GET',
    path: '/dashboard/{proxy+}',
    handler: 'dashboard-pages',
    auth: 'session',
    tables: { main: 'read', ephemeral: 'read', activity: 'read' },
    edge: adminPlaneEdge,
  },
  {
    name: 'DashboardAction',
    method: 'POST',
    path: '/dashboard/{proxy+}',
    handler: 'dashboard',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'write', activity: 'write' },
    hashes: true,
    sendsMail: true,
    edge: adminPlaneEdge,
  },
  // The dashboard's logo upload (behaviour SITE-3, DASH-6): its own row so that only it may carry a
  // body past the managed rule set's 8 KB (EDGE-6), and only it writes under branding/.
  {
    name: 'DashboardLogoUpload',
    method: 'POST',
    // Not below /dashboard/settings: API Gateway would create that resource without a method, so
    // GET /dashboard/settings would no longer reach {proxy+} (lib/gateway-responses.ts: a 404).
    path: '/dashboard/logo',
    handler: 'dashboard-logo',
    auth: 'session',
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
    writesSiteAssets: true,
    largeBody: {
      maxBytes: 512 * 1024 + 16 * 1024,
      rationale:
        'EDGE-6: the dashboard form posts a logo of up to 512 KiB (SITE-3) with its CSRF field; the handler refuses more, and checks the bytes',
    },
    edge: adminPlaneEdge,
  },
  // Issue 14: the logs admins read (behaviour LOG-8, LOG-9). Read-only.
  admin('AdminListClientActivity', 'GET', '/api/admin/clients/{client_id}/activity', 'activity-list', {
    tables: { main: 'read', ephemeral: 'read', activity: 'read' },
  }),
  admin('AdminListAuditLog', 'GET', '/api/admin/audit', 'audit-list', { tables: { main: 'read', ephemeral: 'read', activity: 'read' } }),
  // Site settings (issue 14; behaviour SITE-1..SITE-3): title and MFA policy, audited in the activity table.
  admin('AdminGetSettings', 'GET', '/api/admin/settings', 'settings-get', { tables: { main: 'read', ephemeral: 'read' } }),
  admin('AdminUpdateSettings', 'PATCH', '/api/admin/settings', 'settings-update', {
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
  }),
  // The logo (behaviour SITE-3): a raw image body up to 512 KiB, so past SizeRestrictions_BODY.
  admin('AdminPutSiteLogo', 'PUT', '/api/admin/site-logo', 'site-logo-put', {
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
    writesSiteAssets: true,
    largeBody: {
      maxBytes: 512 * 1024,
      rationale: 'EDGE-6: a logo is an image of up to 512 KiB (SITE-3); the handler refuses more, and checks the bytes',
    },
  }),
  admin('AdminDeleteSiteLogo', 'DELETE', '/api/admin/site-logo', 'site-logo-delete', {
    tables: { main: 'write', ephemeral: 'read', activity: 'write' },
    writesSiteAssets: true,
  }),
];

/** A function run on a schedule (EventBridge in AWS); not reachable over HTTP. */
export interface ScheduledJob {
  readonly name: string;
  /** File name under lambdas/jobs/, without extension; it exports `handler`. */
  readonly handler: string;
  /** When it runs, in UTC. */
  readonly dailyAt: { readonly hour: number; readonly minute: number };
  readonly tables: Readonly<Partial<Record<TableName, TableAccess>>>;
}

export const jobs: readonly ScheduledJob[] = [
  {
    // Behaviour REG-7: registration counters are pruned by a daily job, besides their TTL.
    name: 'PruneRegistrationCounters',
    handler: 'prune-registration-counters',
    dailyAt: { hour: 0, minute: 17 },
    tables: { ephemeral: 'write' },
  },
];

/**
 * Not a route: API Gateway sends every request that matches no row here
 * (`ANY /{proxy+}` and `ANY` on each routed path), and the local server does the same,
 * so unknown paths get 404 and known paths with another method get 405, in one shape.
 */
export const fallbackHandler = 'fallback';
