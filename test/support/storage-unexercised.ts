/**
 * Declared storage access that no handler test exercises (behaviour IAM-3): each entry names the
 * code path that uses it and why no test reaches it on that route. test/support/storage-access-reporter.js
 * fails a full run on a declared family and verb that no test used and that is not listed here,
 * and on an entry here that a test did use (the entry is then stale: remove it).
 */
import type { KeyFamilyName } from '../../lambdas/adapters/dynamodb/keys/families';
import { routes, type StorageVerb } from '../../lambdas/routes';

export interface Unexercised {
  readonly route: string;
  readonly family: KeyFamilyName;
  readonly verb: StorageVerb;
  /** The code path, and why no test reaches it on this route. */
  readonly why: string;
  /**
   * Reached or not depending on what an earlier request of the same container cached (and which
   * worker ran which file): not held stale when a test happens to use it.
   */
  readonly cached?: true;
}

const each = (names: readonly string[], family: KeyFamilyName, verb: StorageVerb, why: string): Unexercised[] =>
  names.map((route) => ({ route, family, verb, why }));
const cached = (names: readonly string[], family: KeyFamilyName, verb: StorageVerb, why: string): Unexercised[] =>
  names.map((route) => ({ route, family, verb, why, cached: true }));

const adminRows = routes.filter((route) => route.auth === 'admin').map((route) => route.name);

/** The routes that find clients through lambdas/wiring/repositories.ts `findClient` (or client authentication). */
const clientFinders = [
  'Authorize',
  'AuthorizeSignIn',
  'AuthorizeComplete',
  'Token',
  'Introspect',
  'Revoke',
  'SignInCode',
  'SignInStepUp',
  'PasskeySignIn',
  'PushedAuthorizationRequest',
];

/** Admin rows whose tests read a user anyway (the user they are about). */
const adminRowsReadingUsers = [
  'AdminGetSettings',
  'AdminPutSiteLogo',
  'AdminDeleteSiteLogo',
  'AdminListUsers',
  'AdminListUserPasskeys',
  'AdminRemoveUserPasskey',
  'AdminSendPasswordReset',
  'AdminCreateUser',
  'AdminGetUser',
  'AdminUpdateUser',
  'AdminDeleteUser',
  'AdminListUserEnvironments',
  'AdminGrantEnvironment',
  'AdminRevokeEnvironment',
  'AdminCreateApiKey',
  'AdminUpdateSettings',
  // The rotation's mail names the admin user who rotated (behaviour ADMIN-24).
  'AdminRotateClientSecret',
];

/** Admin rows whose tests present an admin user's token (test/handlers/admin-auth.test.ts, the self-service key tests). */
const adminRowsWithUserTokens = ['AdminListUsers', 'AdminCreateApiKey', 'AdminListApiKeys', 'AdminRevokeApiKey'];

const mailBrand =
  'mail carries the site title and logo (lambdas/wiring/mail.ts getBrand); the brand is read once per container, and in these test files an earlier request of the same container read it';
const bearerFamily =
  'a user token with a refresh-token family presented as a bearer token (lambdas/http/bearer.ts); these tests present session cookies or tokens without a family';
const dashboardPages =
  'a dashboard page or form that mirrors an admin API route (lambdas/presentation/dashboard); test/handlers/dashboard*.test.ts cover the main pages and forms, not this one';

export const unexercised: readonly Unexercised[] = [
  ...each(
    ['OpenIdConfiguration'],
    'scopeList',
    'query',
    'discovery reads the catalog once per container and minute (lambdas/wiring/storage.ts); discovery.test.ts reads it first through OAuthServerMetadata in the same container',
  ),
  ...each(
    ['Authorize'],
    'scope',
    'batch-get',
    'a scope missing from the cached catalog is looked up by name (lambdas/core/cache.ts catalogNames, behaviour ADMIN-18), as at the token endpoint; no authorization test asks for a scope created within the cache minute',
  ),
  ...each(
    ['AuthorizeSignIn'],
    'session',
    'delete',
    'a sign-in over an existing session replaces it (lambdas/http/session.ts), as SignIn does; the authorization sign-in tests start without a session',
  ),
  ...each(
    ['AdminDeleteClient'],
    'client',
    'put',
    'deleting a metadata-document client leaves a blocked record and its copies (behaviour CIMD-6); only test/e2e/client-metadata-documents.test.ts serves a document to register one',
  ),
  ...each(
    ['SignInCode'],
    'session',
    'delete',
    'a code entered over an existing session (a step-up, behaviour MFA-10) replaces it (lambdas/http/session.ts); the handler tests post the code without the session cookie, test/browser/step-up.test.ts reaches it',
  ),
  ...each(
    ['SignInCode'],
    'device',
    'delete',
    "the completed sign-in replaces the browser's older device cookie (behaviour PWFAIL-3); the handler tests send none, test/browser/step-up.test.ts reaches it",
  ),
  ...each(
    ['AuthorizeComplete'],
    'environment',
    'get',
    "the environment rule's generation (lambdas/core/authorization-decision.ts hasEnvironmentAccess), cached per container for 10 s; read first by Authorize in the same container",
  ),
  ...each(['SignInCodeResend'], 'siteSettings', 'get', mailBrand),
  ...each(
    ['SignInCodeResend'],
    'authorizationRequest',
    'get',
    'a resend within an authorization (request_id, behaviour MFA-7); the resend tests send none',
  ),
  ...each(['EmailVerificationVerify'], 'tokenFamily', 'get', bearerFamily),
  ...each(
    ['EmailVerificationVerify'],
    'user',
    'batch-get',
    'the browser-session path of lambdas/http/account-caller.ts reads the user as stored now (a strongly consistent BatchGetItem); the tests use bearer tokens, whose check reads the user itself (behaviour BEARER-1)',
  ),
  ...each(
    ['EmailVerificationVerify'],
    'session',
    'get',
    'a verification from a browser session rather than a bearer token (lambdas/http/account-caller.ts); the tests use bearer tokens',
  ),
  ...each(['ResetPasswordPage', 'ResetPassword', 'ResetPasskeysRemove', 'AdminSendPasswordReset'], 'siteSettings', 'get', mailBrand),
  ...each(
    ['ResetPassword', 'ResetPasskeysRemove'],
    'tokenFamily',
    'update',
    "a password change revokes the user's refresh-token families (behaviour RESET-12); these tests' users hold none",
  ),
  ...each(
    ['AdminDeleteUser'],
    'passkey',
    'delete',
    "a deleted user's passkeys are deleted with their index entries (user-repository.ts, behaviour ADMIN-7); admin-users.test.ts deletes users without passkeys",
  ),
  ...each(
    ['AdminDeleteClient'],
    'user',
    'put',
    "a deleted client's API keys are revoked with their users' index entries (api-key-store.ts, behaviour KEY-9); admin-clients.test.ts deletes clients without keys",
  ),
  ...each(['AdminDeleteClient'], 'apiKey', 'get', 'as user put: the revocation of the deleted client’s keys'),
  ...each(['AdminDeleteClient'], 'apiKey', 'update', 'as user put: the revocation of the deleted client’s keys'),
  ...(
    [
      ['DashboardPage', 'passkey', 'get'],
      ['DashboardPage', 'apiKey', 'get'],
      ['DashboardPage', 'usersOfEnvironment', 'query'],
      ['DashboardAction', 'user', 'update'],
      ['DashboardAction', 'auditDay', 'query'],
      ['DashboardAction', 'tokenActivity', 'query'],
      ['DashboardAction', 'passkey', 'delete'],
      ['DashboardAction', 'apiKey', 'batch-get'],
      ['DashboardAction', 'apiKey', 'delete'],
      ['DashboardAction', 'tokenFamily', 'update'],
      ['DashboardAction', 'resetLink', 'put'],
      ['DashboardAction', 'resetLinkOfUser', 'put'],
    ] as const
  ).map(([route, family, verb]) => ({ route, family, verb, why: dashboardPages })),
  ...each(
    clientFinders,
    'client',
    'put',
    'a Client ID Metadata Document client stored on first use (lambdas/core/client-metadata-document.ts, behaviour CIMD-1); no handler test names a metadata document URL as client_id (that needs a document server: test/e2e/client-metadata-documents.test.ts, through the local server), and test/integration/metadata-document-resolution.test.ts tests the resolver without a route',
  ),
  ...each(
    clientFinders.filter((name) => !['Authorize', 'AuthorizeSignIn', 'Token', 'PushedAuthorizationRequest'].includes(name)),
    'scopeList',
    'query',
    'the scope catalog a metadata-document client is checked against (behaviour CIMD-1), as for client put',
  ),
  ...each(
    adminRows.filter((name) => !adminRowsWithUserTokens.includes(name)),
    'tokenFamily',
    'get',
    "an admin user's token issued with a refresh-token family: lambdas/http/bearer.ts checks the family, the same code for every admin row; test/handlers/admin-auth.test.ts reaches it through AdminListUsers",
  ),
  ...each(
    adminRows.filter((name) => !adminRowsReadingUsers.includes(name) && !adminRowsWithUserTokens.includes(name)),
    'user',
    'get',
    "an admin user's token: lambdas/http/admin-auth.ts reads the user, the same code for every admin row; test/handlers/admin-auth.test.ts reaches it through AdminListUsers",
  ),
  ...each(
    adminRows.filter((name) => name !== 'AdminListEnvironments'),
    'usedIdentifier',
    'put',
    "a DPoP proof's jti with a DPoP-bound admin token (lambdas/http/bearer.ts verifyPresented, behaviour BEARER-5), the same code for every admin row; test/handlers/bearer-dpop.test.ts reaches it through AdminListEnvironments",
  ),
  ...cached(
    adminRows.filter((name) => name !== 'AdminListUsers'),
    'siteSettings',
    'get',
    "the MFA policy in force, read for an admin user's token only (lambdas/http/admin-auth.ts requireFactorOfPolicy, behaviour MFA-11), and kept a second per container (lambdas/wiring/bearer.ts), the same code for every admin row; whether a row's test reaches it depends on the token it presents and on what an earlier request of the same container cached; test/handlers/mfa-policy-access-tokens.test.ts reaches it through AdminListUsers every run",
  ),
];
