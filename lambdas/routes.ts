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

import type { KeyFamilyName } from './adapters/dynamodb/keys/families';
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

/** The logical tables (lambdas/adapters/dynamodb/table-definitions.ts defines them). */
export type { TableName } from './adapters/dynamodb/table-definitions';

/**
 * What a function does with the items of one key family, each verb one IAM action (behaviour
 * IAM-1): `get` GetItem, `batch-get` BatchGetItem, `query` Query (on the family's table or
 * index), `put` PutItem, `update` UpdateItem, `delete` DeleteItem, `check` ConditionCheckItem,
 * `batch-write` BatchWriteItem. A transaction needs no verb of its own: IAM authorizes each of its
 * items as the put, update, delete or check it is.
 */
export type StorageVerb = 'get' | 'batch-get' | 'query' | 'put' | 'update' | 'delete' | 'check' | 'batch-write';

/**
 * A function's storage access: per key family (lambdas/adapters/dynamodb/keys/families.ts `keyFamilies`),
 * the verbs its code paths use. The stack grants these and nothing else, each limited to the
 * family's partition keys (`dynamodb:LeadingKeys`); the handler tests record every request each
 * route sends and fail on one its row does not declare (behaviour IAM-3).
 */
export type StorageAccess = Readonly<Partial<Record<KeyFamilyName, StorageVerb | readonly StorageVerb[]>>>;

/** The verbs of one family, as a list. */
export const verbsOf = (declared: StorageVerb | readonly StorageVerb[] | undefined): readonly StorageVerb[] =>
  declared === undefined ? [] : typeof declared === 'string' ? [declared] : declared;

/** Several declarations as one: every family's verbs together. */
export function storage(...parts: StorageAccess[]): StorageAccess {
  const merged: Partial<Record<KeyFamilyName, StorageVerb[]>> = {};
  for (const part of parts) {
    for (const [family, verbs] of Object.entries(part) as [KeyFamilyName, StorageVerb | readonly StorageVerb[]][]) {
      const list = (merged[family] ??= []);
      for (const verb of verbsOf(verbs)) if (!list.includes(verb)) list.push(verb);
    }
  }
  return merged;
}

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
  /** DynamoDB access the function is granted (behaviour IAM-1..IAM-3): per key family, the verbs it uses. */
  readonly storage: StorageAccess;
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

/**
 * A bearer token's check (behaviour BEARER-1): its issued-token record, its family and the family's
 * user, whose password version it is held to (a sign-in's tokens), its client.
 */
const bearerCheck: StorageAccess = { tokenRecord: 'get', tokenFamily: 'get', user: 'get', client: 'get' };
/**
 * An admin API caller (behaviour ADMIN-1): a bearer check, the user of a user's token, the MFA
 * policy in force that a user's token is held to (the site settings, behaviour MFA-11), and the jti
 * of a DPoP-bound token's proof, used once (behaviour BEARER-5).
 */
const adminCaller = storage(bearerCheck, { user: 'get', siteSettings: 'get', usedIdentifier: 'put' });
/** Using a sign-in session: the session, then its user, strongly consistent (behaviour RESET-12). */
const sessionUse: StorageAccess = { session: 'get', user: 'get' };
/** Mail carries the site's title and logo (lambdas/presentation/mail/branded.ts). */
const mail: StorageAccess = { siteSettings: 'get' };
/**
 * Finding a client: one copy of its record (`get`), or, for a Client ID Metadata Document, the
 * document's client stored anew on all 8 copies (`put`, checked against the scope catalog; behaviour
 * CIMD-1).
 */
const clientLookup: StorageAccess = { client: ['get', 'put'], scopeList: 'query' };
/** Client authentication's private_key_jwt: the assertion's jti, accepted once (behaviour TOKEN-6, RFC 7523 3). */
const clientAssertionJti: StorageAccess = { usedIdentifier: 'put' };
/** The environment rule (behaviour ENV-1, ENV-4): the environment's generation and the user's grant of it. */
const grantCheck: StorageAccess = { environment: 'get', user: 'get' };
/** Issuing from the token endpoints: the token record and the activity row, batched for client credentials and API keys. */
const tokenIssue: StorageAccess = { tokenRecord: 'batch-write', tokenActivity: 'batch-write' };
/**
 * The JWT-bearer grant (behaviour JWTB-1): its trusted issuer, the assertion's jti used once, the
 * user named by address, and one created on first use with its environment grant (behaviour IDJAG-5).
 */
const jwtBearerGrant: StorageAccess = {
  trustedIssuer: 'get',
  usedIdentifier: 'put',
  email: ['get', 'put'],
  user: ['get', 'put'],
  environment: ['get', 'check'],
};
/** A password sign-in (behaviour SIGNIN-1, PWFAIL-1..PWFAIL-5, MFA-1): the address, its user, the failure windows, the device, the code or the session. */
const passwordSignIn: StorageAccess = {
  email: 'get',
  user: 'get',
  passwordFailures: 'update',
  device: ['put', 'update', 'delete'],
  sendRate: ['get', 'put'],
  signInChallenge: 'put',
  session: ['put', 'delete'],
  siteSettings: 'get',
};
/** What a password change or an admin's change of a user ends (behaviour RESET-12): sessions and token families. */
const credentialChange: StorageAccess = {
  sessionsOfUser: 'query',
  familiesOfUser: 'query',
  session: 'delete',
  tokenFamily: 'update',
  user: 'query',
};
/** A user's deletion (behaviour ADMIN-7): credentials, keys and index entries, then the user, the address, the audit entry. */
const userDeletion: StorageAccess = {
  user: ['get', 'query', 'delete'],
  email: 'delete',
  apiKey: 'delete',
  passkey: 'delete',
  auditEntry: 'put',
};
/** An admin write of a client (behaviour ADMIN-18, LOG-9): the scope catalog check, all 8 copies, the audit entry. */
const clientWrite: StorageAccess = {
  client: ['get', 'put'],
  scopeCatalogVersion: ['get', 'check'],
  scope: 'batch-get',
  auditEntry: 'put',
};
/** Trusted issuers' list (behaviour TRUST-1). */
const trustedIssuerReads: StorageAccess = { trustedIssuerList: 'query' };
/**
 * A trusted issuer's write: its workload rules' scopes checked in the catalog, the write conditioned
 * on the catalog's version (behaviour TRUST-6, ADMIN-18), its audit entry (LOG-9).
 */
const trustedIssuerWrite: StorageAccess = { scopeCatalogVersion: ['get', 'check'], scope: 'batch-get', auditEntry: 'put' };
/** The dashboard's pages (behaviour DASH-1..DASH-6): the lists, records and logs an admin reads. */
const dashboardReads: StorageAccess = {
  siteSettings: 'get',
  userList: 'query',
  environmentList: 'query',
  scopeList: 'query',
  clientList: 'query',
  apiKeysOfClient: 'query',
  auditDay: 'query',
  tokenActivity: 'query',
  client: 'get',
  user: ['get', 'query'],
  email: 'get',
  environment: 'get',
  passkey: 'get',
  apiKey: ['get', 'batch-get'],
  usersOfEnvironment: 'query',
  // The trusted issuers' page (behaviour TRUST-1, DASH-6); an environment's deletion checks the list (TRUST-8).
  trustedIssuerList: 'query',
  trustedIssuer: 'get',
  // A client's page charts its hourly token counts (behaviour DASH-8).
  tokenStats: 'query',
};
/** The dashboard's forms: what the admin API's writes do, each with its audit entry. */
const dashboardWrites: StorageAccess = storage(clientWrite, userDeletion, credentialChange, {
  client: ['put', 'delete', 'check'],
  user: ['put', 'update', 'check'],
  email: 'put',
  environment: ['put', 'delete', 'check'],
  scope: ['put', 'delete'],
  scopeCatalogVersion: 'put',
  apiKey: ['put', 'update'],
  passkey: 'get',
  siteSettings: 'put',
  resetLink: 'put',
  resetLinkOfUser: 'put',
  trustedIssuer: ['put', 'delete'],
  // A create or rotate form keeps the secret for one showing (behaviour DASH-13).
  shownOnce: 'put',
});

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
const admin = (
  name: string,
  method: HttpMethod,
  path: string,
  handler: string,
  access: StorageAccess,
  extra: Partial<Route> = {},
): Route => ({
  name,
  method,
  path,
  handler: `admin/${handler}`,
  auth: 'admin',
  storage: access,
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
    storage: { scopeList: 'query' },
    crossOrigin: true,
    edge: lightEdge,
  },
  {
    name: 'OpenIdConfiguration',
    method: 'GET',
    path: endpointPaths.openidConfiguration,
    handler: 'openid-configuration',
    auth: 'none',
    storage: { scopeList: 'query' },
    crossOrigin: true,
    edge: lightEdge,
  },
  // The OpenAPI document of this surface (behaviour DISC-6; bin/openapi.ts generates it).
  {
    name: 'OpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    handler: 'openapi-document',
    auth: 'none',
    storage: {},
    crossOrigin: true,
    edge: lightEdge,
  },
  {
    name: 'Health',
    method: 'GET',
    path: endpointPaths.health,
    handler: 'health',
    auth: 'none',
    storage: {},
    edge: lightEdge,
  },
  // Dynamic client registration (behaviour REG-1..REG-5, RFC 7591).
  {
    name: 'Register',
    method: 'POST',
    path: endpointPaths.register,
    handler: 'register',
    auth: 'none',
    storage: { registrationCounter: 'update', scopeList: 'query', client: ['put', 'delete'] },
    crossOrigin: true,
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'block',
      rationale: 'EDGE-1: POST /api/register about 10 / 1 minute; JSON API, so Block (429)',
    },
  },
  // Sign-in (behaviour SIGNIN-1..SIGNIN-8 /api/auth/*): a server-rendered page and its form post.
  // Reads the site settings (title, logo; behaviour SITE-4), cached a minute per container.
  {
    name: 'SignInPage',
    method: 'GET',
    path: endpointPaths.signIn,
    handler: 'sign-in-page',
    auth: 'none',
    storage: { siteSettings: 'get' },
    edge: lightEdge,
  },
  {
    name: 'SignIn',
    method: 'POST',
    path: endpointPaths.signIn,
    handler: 'sign-in',
    auth: 'none',
    storage: storage(passwordSignIn, mail),
    hashes: true,
    sendsMail: true, // the sign-in code (behaviour MFA-2), only after a correct password
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
    storage: { session: 'delete' },
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
    storage: sessionUse,
    edge: lightEdge,
  },
  // Authorization (behaviour AUTHZ-1..AUTHZ-11): the request, the sign-in step, the consent step.
  {
    name: 'Authorize',
    method: 'GET',
    path: endpointPaths.authorize,
    handler: 'authorize',
    auth: 'session',
    storage: storage(sessionUse, clientLookup, grantCheck, {
      authorizationRequest: 'put',
      authorizationCode: 'put',
      siteSettings: 'get',
      scope: 'batch-get',
      // Claims a pushed request, once (behaviour AUTHZ-17).
      pushedAuthorizationRequest: 'update',
    }),
    edge: lightEdge,
  },
  {
    name: 'AuthorizeSignIn',
    method: 'POST',
    path: endpointPaths.authorize,
    handler: 'authorize-sign-in',
    auth: 'none',
    storage: storage(passwordSignIn, mail, clientLookup, grantCheck, {
      authorizationRequest: ['get', 'put', 'update'],
      authorizationCode: 'put',
    }),
    hashes: true,
    sendsMail: true, // the sign-in code (behaviour MFA-2), only after a correct password
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
    storage: storage(sessionUse, clientLookup, grantCheck, {
      authorizationRequest: ['get', 'update'],
      authorizationCode: 'put',
      siteSettings: 'get',
    }),
    edge: authorizeEdge,
  },
  // Pushed authorization requests (behaviour AUTHZ-14..AUTHZ-16, RFC 9126): client-authenticated as at the token endpoint.
  {
    name: 'PushedAuthorizationRequest',
    method: 'POST',
    path: endpointPaths.pushedAuthorizationRequest,
    handler: 'par',
    auth: 'client',
    // scope: the catalog names a client's scopes are held to (behaviour ADMIN-18), as at the authorization endpoint.
    storage: storage(clientLookup, clientAssertionJti, { pushedAuthorizationRequest: 'put', scope: 'batch-get' }),
    crossOrigin: true,
    hashes: true,
    edge: {
      limit: 30,
      windowSeconds: 60,
      action: 'block',
      rationale:
        'EDGE-1 (added): one push per authorization, counted as POST /api/token is, about 30 / 1 minute; client authentication costs an Argon2id verification; JSON API, so Block (429)',
    },
  },
  // Tokens (behaviour TOKEN-1, INTRO-1, REVOKE-1): grants, introspection (RFC 7662), revocation (RFC 7009).
  {
    name: 'Token',
    method: 'POST',
    path: endpointPaths.token,
    handler: 'token',
    auth: 'client',
    storage: storage(
      clientLookup,
      clientAssertionJti,
      grantCheck,
      tokenIssue,
      {
        authorizationCode: ['get', 'update'],
        // check: a grace-window reissue needs the kept successor unused (behaviour REFRESH-7).
        refreshToken: ['get', 'put', 'update', 'check'],
        tokenFamily: ['get', 'put', 'update', 'check'],
        scope: 'batch-get',
        siteSettings: 'get',
        tokenRecord: 'put',
        tokenActivity: 'put',
        // A DPoP proof's jti, used once (behaviour TOKEN-7, RFC 9449 11.1).
        usedIdentifier: 'put',
      },
      jwtBearerGrant,
    ),
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
    storage: storage(tokenIssue, {
      apiKey: ['get', 'batch-get', 'update'],
      client: 'batch-get',
      user: 'batch-get',
      environment: ['get', 'batch-get'],
      scope: 'batch-get',
      scopeList: 'query',
      tokenActivity: 'put',
      // The MFA policy in force that a self-service key is held to (behaviour MFA-12).
      siteSettings: 'get',
    }),
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
    storage: storage(clientLookup, clientAssertionJti, bearerCheck),
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
    storage: storage(clientLookup, clientAssertionJti, { refreshToken: 'get', tokenFamily: 'update' }),
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
    // usedIdentifier: a DPoP proof's jti (behaviour BEARER-5).
    storage: storage(bearerCheck, { user: 'get', usedIdentifier: 'put' }),
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
    // usedIdentifier: a DPoP proof's jti (behaviour BEARER-5).
    storage: storage(bearerCheck, { usedIdentifier: 'put' }),
    verifiesTokens: true,
    edge: lightEdge,
  },
  // Account security by mail (behaviour MFA-1..MFA-8, VERIFY-1..VERIFY-6,
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
    storage: storage(clientLookup, grantCheck, {
      signInChallenge: ['get', 'update'],
      authorizationRequest: ['get', 'update'],
      authorizationCode: 'put',
      // delete: a code entered over an existing session (a step-up, behaviour MFA-10) replaces that
      // session and the browser's older device cookie, as a sign-in does.
      session: ['put', 'delete'],
      device: ['put', 'delete'],
      user: ['get', 'batch-get'],
      siteSettings: 'get', // the code page's title and logo (behaviour SITE-4)
    }),
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
    storage: storage(mail, { signInChallenge: ['get', 'update'], sendRate: ['get', 'put'], authorizationRequest: 'get' }),
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
    // Behaviour MFA-10: the first code for a session the MFA policy now asks a second
    // factor of; the code is then entered at SignInCode. Reads the session and its user, mails.
    name: 'SignInStepUp',
    method: 'POST',
    path: accountPaths.stepUp,
    handler: 'sign-in-step-up',
    auth: 'session',
    storage: storage(sessionUse, mail, clientLookup, {
      authorizationRequest: ['get', 'update'],
      authorizationCode: 'put',
      signInChallenge: 'put',
      sendRate: ['get', 'put'],
    }),
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
    storage: storage(mail, bearerCheck, { session: 'get', user: 'batch-get', verificationCode: 'put', sendRate: ['get', 'put'] }),
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
    storage: storage(bearerCheck, { session: 'get', user: ['batch-get', 'update'], verificationCode: ['update', 'delete'] }),
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
    storage: { siteSettings: 'get' }, // the site's title and logo (behaviour SITE-4)
    edge: lightEdge,
  },
  {
    name: 'ForgotPassword',
    method: 'POST',
    path: accountPaths.forgotPassword,
    handler: 'forgot-password',
    auth: 'none',
    // The request counts sends (ephemeral); its background half reads the user and stores the link.
    storage: storage(mail, { sendRate: ['get', 'put'], email: 'get', user: 'get', resetLink: 'put', resetLinkOfUser: 'put' }),
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
    storage: { resetLink: 'get', resetLinkOfUser: 'get', user: 'batch-get', siteSettings: 'get' },
    edge: lightEdge,
  },
  {
    name: 'ResetPassword',
    method: 'POST',
    path: accountPaths.resetPassword,
    handler: 'reset-password',
    auth: 'none',
    storage: storage(mail, credentialChange, {
      resetLink: ['get', 'delete'],
      resetLinkOfUser: ['get', 'delete'],
      recoveryProof: 'put',
      // get: the passkeys listed with their owner's generation (behaviour PASSKEY-13).
      user: ['get', 'batch-get', 'update'],
      passkey: 'get',
      // The self-service API keys the completion lists (behaviour RESET-13).
      apiKey: 'batch-get',
    }),
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
    // The proof is read, then used in one transaction with the user's update (behaviour RESET-9).
    storage: storage(mail, credentialChange, {
      recoveryProof: ['get', 'update'],
      user: ['put', 'batch-get', 'update', 'delete'],
      passkey: ['get', 'delete'],
      // The self-service API keys it revokes, each with its audit entry (behaviour RESET-13).
      apiKey: ['batch-get', 'update'],
      auditEntry: 'put',
    }),
    sendsMail: true,
    edge: {
      limit: 10,
      windowSeconds: 600,
      action: 'block',
      rationale: 'EDGE-1: one post per completed reset, fitted to WAF as 10 / 600 s like POST /reset-password; sends mail, so Block',
    },
  },
  // Passkeys (behaviour PASSKEY-1..PASSKEY-9). Behaviour EDGE-1: about 20 a minute on the passkey paths.
  {
    name: 'PasskeysPage',
    method: 'GET',
    path: accountPaths.passkeys,
    handler: 'passkeys-page',
    auth: 'session',
    // Reads the session and the passkeys, stores the page's registration ceremony.
    storage: storage(sessionUse, { passkeyCeremony: 'put', passkey: 'get', user: 'query', siteSettings: 'get' }),
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
    // check: the registration is conditioned on the session's credential version (behaviour PASSKEY-14).
    storage: storage(sessionUse, mail, { passkeyCeremony: ['put', 'update'], passkey: ['get', 'put'], user: ['put', 'query', 'check'] }),
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
    storage: storage(sessionUse, mail, { passkeyCeremony: 'put', passkey: ['get', 'delete'], user: ['delete', 'query'] }),
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
    storage: { passkeyCeremony: 'put' },
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
    storage: storage(clientLookup, grantCheck, {
      passkeyCeremony: 'update',
      passkey: ['get', 'update'],
      user: 'get',
      authorizationRequest: ['get', 'update'],
      authorizationCode: 'put',
      session: 'put',
      device: 'put',
      siteSettings: 'get', // the refused sign-in page's title and logo (behaviour SITE-4)
    }),
    deviceCookies: true, // the completed sign-in renews it (behaviour PWFAIL-3)
    edge: {
      limit: 10,
      windowSeconds: 60,
      action: 'challenge',
      rationale:
        'EDGE-1: POST /api/auth/passkey/verify about 20 / 1 minute, deployed as the sign-in forms are: Challenge from 10, Block at 30; a browser form post that sends no mail',
    },
  },
  admin(
    'AdminListUserPasskeys',
    'GET',
    '/api/admin/users/{user_id}/passkeys',
    'user-passkeys-list',
    storage(adminCaller, { passkey: 'get', user: 'query' }),
  ),
  admin(
    'AdminRemoveUserPasskey',
    'DELETE',
    '/api/admin/users/{user_id}/passkeys/{credential_id}',
    'user-passkeys-remove',
    storage(adminCaller, mail, { passkey: ['get', 'delete'], user: 'delete', auditEntry: 'put' }),
    {
      sendsMail: true,
    },
  ),
  // Behaviour ADMIN-17: an admin mails a user a reset link.
  admin(
    'AdminSendPasswordReset',
    'POST',
    '/api/admin/users/{user_id}/password-reset',
    'users-password-reset',
    storage(adminCaller, mail, { resetLink: 'put', resetLinkOfUser: 'put', auditEntry: 'put' }),
    { sendsMail: true },
  ),
  // Admin API (behaviour ADMIN-1..ADMIN-16 /api/admin/*).
  // Behaviour ADMIN-22: an address is its EMAIL# item, an environment its grants' list, a user's grants checked by the user's partition.
  admin(
    'AdminListUsers',
    'GET',
    '/api/admin/users',
    'users-list',
    storage(adminCaller, { userList: 'query', usersOfEnvironment: 'query', email: 'get', user: 'query', environment: 'get' }),
  ),
  admin(
    'AdminCreateUser',
    'POST',
    '/api/admin/users',
    'users-create',
    storage(adminCaller, { user: 'put', email: ['get', 'put'], auditEntry: 'put' }),
    { hashes: true },
  ),
  admin('AdminGetUser', 'GET', '/api/admin/users/{user_id}', 'users-get', adminCaller),
  admin(
    'AdminUpdateUser',
    'PATCH',
    '/api/admin/users/{user_id}',
    'users-update',
    storage(adminCaller, mail, credentialChange, {
      user: ['put', 'query'],
      email: ['get', 'put', 'delete'],
      passkey: 'get',
      // A new password's notice lists the user's live self-service keys (behaviour KEY-17, RESET-13).
      apiKey: 'batch-get',
      auditEntry: 'put',
    }),
    { hashes: true, sendsMail: true },
  ),
  admin('AdminDeleteUser', 'DELETE', '/api/admin/users/{user_id}', 'users-delete', storage(adminCaller, credentialChange, userDeletion)),
  admin(
    'AdminListUserEnvironments',
    'GET',
    '/api/admin/users/{user_id}/environments',
    'user-environments-list',
    storage(adminCaller, { user: 'query', environment: 'get' }),
  ),
  admin(
    'AdminGrantEnvironment',
    'PUT',
    '/api/admin/users/{user_id}/environments/{environment_id}',
    'user-environments-grant',
    storage(adminCaller, { user: ['put', 'query'], environment: ['get', 'check'], auditEntry: 'put' }),
  ),
  admin(
    'AdminRevokeEnvironment',
    'DELETE',
    '/api/admin/users/{user_id}/environments/{environment_id}',
    'user-environments-revoke',
    storage(adminCaller, { user: 'delete', environment: 'get', auditEntry: 'put' }),
  ),
  admin('AdminListEnvironments', 'GET', '/api/admin/environments', 'environments-list', storage(adminCaller, { environmentList: 'query' })),
  admin(
    'AdminCreateEnvironment',
    'POST',
    '/api/admin/environments',
    'environments-create',
    storage(adminCaller, { environment: 'put', auditEntry: 'put' }),
  ),
  admin(
    'AdminDeleteEnvironment',
    'DELETE',
    '/api/admin/environments/{environment_id}',
    'environments-delete',
    storage(adminCaller, {
      environment: ['get', 'delete'],
      clientList: 'query',
      usersOfEnvironment: 'query',
      user: 'delete',
      auditEntry: 'put',
      // Behaviour TRUST-8: refused while the environment trusts an issuer.
      trustedIssuerList: 'query',
    }),
  ),
  admin('AdminListScopes', 'GET', '/api/admin/scopes', 'scopes-list', storage(adminCaller, { scopeList: 'query' })),
  admin('AdminCreateScope', 'POST', '/api/admin/scopes', 'scopes-create', storage(adminCaller, { scope: 'put', auditEntry: 'put' })),
  admin(
    'AdminDeleteScope',
    'DELETE',
    '/api/admin/scopes/{name}',
    'scopes-delete',
    // trustedIssuerList: a workload rule holds a scope as a client does (behaviour ADMIN-18, TRUST-6).
    storage(
      adminCaller,
      { scope: 'delete', scopeCatalogVersion: 'put', scopeList: 'query', clientList: 'query', auditEntry: 'put' },
      { trustedIssuerList: 'query' },
    ),
  ),
  // Trusted issuers of the JWT-bearer grant (behaviour TRUST-1..TRUST-9); each change with its audit entry (LOG-9).
  admin('AdminListTrustedIssuers', 'GET', '/api/admin/trusted-issuers', 'trusted-issuers-list', storage(adminCaller, trustedIssuerReads)),
  admin(
    'AdminCreateTrustedIssuer',
    'POST',
    '/api/admin/trusted-issuers',
    'trusted-issuers-create',
    // get: a workload issuer's 409 names the environment that holds it; check: the environment still exists.
    storage(adminCaller, trustedIssuerWrite, { trustedIssuer: ['put', 'get'], environment: ['get', 'check'] }),
  ),
  admin(
    'AdminGetTrustedIssuer',
    'GET',
    '/api/admin/trusted-issuers/{trusted_issuer_id}',
    'trusted-issuers-get',
    storage(adminCaller, { trustedIssuer: 'get' }),
  ),
  admin(
    'AdminUpdateTrustedIssuer',
    'PATCH',
    '/api/admin/trusted-issuers/{trusted_issuer_id}',
    'trusted-issuers-update',
    storage(adminCaller, trustedIssuerWrite, { trustedIssuer: ['get', 'put'] }),
  ),
  admin(
    'AdminDeleteTrustedIssuer',
    'DELETE',
    '/api/admin/trusted-issuers/{trusted_issuer_id}',
    'trusted-issuers-delete',
    storage(adminCaller, { trustedIssuer: ['get', 'delete'], auditEntry: 'put' }),
  ),
  // Behaviour ADMIN-21: a search for an exact client id is one GetItem.
  admin('AdminListClients', 'GET', '/api/admin/clients', 'clients-list', storage(adminCaller, { clientList: 'query', client: 'get' })),
  admin('AdminCreateClient', 'POST', '/api/admin/clients', 'clients-create', storage(adminCaller, clientWrite, { environment: 'get' }), {
    hashes: true,
  }),
  admin('AdminGetClient', 'GET', '/api/admin/clients/{client_id}', 'clients-get', adminCaller),
  admin(
    'AdminUpdateClient',
    'PATCH',
    '/api/admin/clients/{client_id}',
    'clients-update',
    storage(adminCaller, clientWrite, { apiKeysOfClient: 'query', apiKey: ['get', 'update'] }),
  ),
  // Behaviour ADMIN-20: hashes the new secret. ADMIN-24, ADMIN-25: mails the admins, found in the
  // user list with a filter; the mail names the actor (its user or client record).
  admin(
    'AdminRotateClientSecret',
    'POST',
    '/api/admin/clients/{client_id}/secret',
    'clients-secret-rotate',
    storage(adminCaller, mail, { client: ['get', 'put'], auditEntry: 'put', userList: 'query' }),
    { hashes: true, sendsMail: true },
  ),
  admin(
    'AdminDeleteClient',
    'DELETE',
    '/api/admin/clients/{client_id}',
    'clients-delete',
    // put: deleting a metadata-document client leaves a blocked record and its copies in its place,
    // so the document, still served, does not register it again.
    storage(adminCaller, {
      client: ['delete', 'put'],
      apiKeysOfClient: 'query',
      apiKey: ['get', 'update'],
      user: 'put',
      auditEntry: 'put',
    }),
  ),
  // API keys (behaviour KEYM-1..KEYM-7): admin or self-service callers. Bearer checks read main and
  // ephemeral; create hashes the secret and mails self-service users; create and revoke
  // write the audit entry (activity) with the key change.
  admin(
    'AdminCreateApiKey',
    'POST',
    '/api/admin/clients/{client_id}/api-keys',
    'api-keys-create',
    storage(adminCaller, mail, { apiKey: ['put', 'update'], user: ['put', 'check'], client: 'check', auditEntry: 'put' }),
    {
      hashes: true,
      sendsMail: true,
      selfService: true,
    },
  ),
  admin(
    'AdminListApiKeys',
    'GET',
    '/api/admin/clients/{client_id}/api-keys',
    'api-keys-list',
    storage(adminCaller, { apiKeysOfClient: 'query', apiKey: 'batch-get', user: 'query' }),
    {
      selfService: true,
    },
  ),
  admin(
    'AdminRevokeApiKey',
    'DELETE',
    '/api/admin/clients/{client_id}/api-keys/{key_id}',
    'api-keys-revoke',
    storage(adminCaller, { apiKey: ['get', 'update'], user: 'put', auditEntry: 'put' }),
    {
      selfService: true,
    },
  ),
  // The admin dashboard (behaviour DASH-1..DASH-6), one router for every page and form below
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
    // The overview (behaviour DASH-7): the counters item, the key-expiry calendar, the hourly token
    // counts, and the signing key's times as the rotation job recorded them.
    storage: storage(sessionUse, { siteSettings: 'get', tokenStats: ['get', 'query'], signingKeyTimes: 'get' }),
    edge: adminPlaneEdge,
  },
  {
    name: 'DashboardPage',
    method: 'GET',
    path: '/dashboard/{proxy+}',
    handler: 'dashboard-pages',
    auth: 'session',
    // The one write of a page: the page a secret is shown on claims its single-use record (behaviour DASH-13).
    storage: storage(sessionUse, dashboardReads, { shownOnce: 'update' }),
    edge: adminPlaneEdge,
  },
  {
    name: 'DashboardAction',
    method: 'POST',
    path: '/dashboard/{proxy+}',
    handler: 'dashboard',
    auth: 'session',
    storage: storage(sessionUse, dashboardReads, dashboardWrites),
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
    storage: storage(sessionUse, { siteSettings: ['get', 'put'], auditEntry: 'put' }),
    writesSiteAssets: true,
    largeBody: {
      maxBytes: 512 * 1024 + 16 * 1024,
      rationale:
        'EDGE-6: the dashboard form posts a logo of up to 512 KiB (SITE-3) with its CSRF field; the handler refuses more, and checks the bytes',
    },
    edge: adminPlaneEdge,
  },
  // The logs admins read (behaviour LOG-8, LOG-9). Read-only.
  admin(
    'AdminListClientActivity',
    'GET',
    '/api/admin/clients/{client_id}/activity',
    'activity-list',
    storage(adminCaller, { tokenActivity: 'query', client: 'get' }),
    {},
  ),
  admin('AdminListAuditLog', 'GET', '/api/admin/audit', 'audit-list', storage(adminCaller, { auditDay: 'query' })),
  // Site settings (behaviour SITE-1..SITE-3): title and MFA policy, audited in the activity table.
  admin('AdminGetSettings', 'GET', '/api/admin/settings', 'settings-get', storage(adminCaller, { siteSettings: 'get' })),
  admin(
    'AdminUpdateSettings',
    'PATCH',
    '/api/admin/settings',
    'settings-update',
    storage(adminCaller, { siteSettings: ['get', 'put'], auditEntry: 'put' }),
    {},
  ),
  // The logo (behaviour SITE-3): a raw image body up to 512 KiB, so past SizeRestrictions_BODY.
  admin(
    'AdminPutSiteLogo',
    'PUT',
    '/api/admin/site-logo',
    'site-logo-put',
    storage(adminCaller, { siteSettings: ['get', 'put'], auditEntry: 'put' }),
    {
      writesSiteAssets: true,
      largeBody: {
        maxBytes: 512 * 1024,
        rationale: 'EDGE-6: a logo is an image of up to 512 KiB (SITE-3); the handler refuses more, and checks the bytes',
      },
    },
  ),
  admin(
    'AdminDeleteSiteLogo',
    'DELETE',
    '/api/admin/site-logo',
    'site-logo-delete',
    storage(adminCaller, { siteSettings: ['get', 'put'], auditEntry: 'put' }),
    {
      writesSiteAssets: true,
    },
  ),
];

/** A function run on a schedule (EventBridge in AWS); not reachable over HTTP. */
export interface ScheduledJob {
  readonly name: string;
  /** File name under lambdas/jobs/, without extension; it exports `handler`. */
  readonly handler: string;
  /** When it runs, in UTC. */
  readonly dailyAt: { readonly hour: number; readonly minute: number };
  readonly storage: StorageAccess;
}

export const jobs: readonly ScheduledJob[] = [
  {
    // Behaviour REG-7: registration counters are pruned by a daily job, besides their TTL.
    name: 'PruneRegistrationCounters',
    handler: 'prune-registration-counters',
    dailyAt: { hour: 0, minute: 17 },
    storage: { registrationCountersOfDay: 'query', registrationCounter: 'delete' },
  },
];

/**
 * The statistics rollup (lib/statistics-rollup.ts, behaviour LOG-10 to LOG-13): invoked by the main
 * and activity tables' streams, it adds to the `STATS#` counters; an operator's recount reads the
 * client, user and key lists and puts the counters. Granted and checked as a job's declaration is
 * (behaviour IAM-1, IAM-3).
 */
export const statisticsRollup: { readonly name: string; readonly storage: StorageAccess } = {
  name: 'RollUpStatistics',
  storage: { tokenStats: ['update', 'put', 'query'], clientList: 'query', userList: 'query', apiKeysOfClient: 'query' },
};

/**
 * The first-admin custom resource (lib/admin-bootstrap.ts): the seed's one transaction of puts
 * (lambdas/bootstrap/seed.ts), granted as a row's declaration is (behaviour IAM-1, IAM-5) and
 * checked against what the seed sends by its handler test, as a job's is (behaviour IAM-3).
 */
export const adminSeed: { readonly name: string; readonly storage: StorageAccess } = {
  name: 'AdminBootstrap',
  storage: { environment: 'put', user: 'put', email: 'put', scope: 'put', client: 'put' },
};

/**
 * The signing-key rotation job (lib/key-rotation.ts): after each run it puts the key set's kids and
 * times, never key material, where the dashboard's overview reads them (behaviour DASH-7; the set
 * itself stays readable by the signing routes and the job only, CUSTODY-1).
 */
export const keyRotationRecord: { readonly name: string; readonly storage: StorageAccess } = {
  name: 'KeyRotation',
  storage: { signingKeyTimes: 'put' },
};

/**
 * Not a route: API Gateway sends every request that matches no row here
 * (`ANY /{proxy+}` and `ANY` on each routed path), and the local server does the same,
 * so unknown paths get 404 and known paths with another method get 405, in one shape.
 */
export const fallbackHandler = 'fallback';
