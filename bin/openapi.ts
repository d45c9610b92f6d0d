/**
 * The OpenAPI 3.1 document of the whole HTTP surface (behaviour DISC-6), built from the route table
 * (paths, methods, authentication) and the zod/mini schemas the handlers validate requests
 * with (zod 4's JSON Schema conversion). `npm run openapi` writes docs/openapi.json, which the
 * `GET /openapi.json` route serves; test/unit/docs/openapi.test.ts fails when that file is stale,
 * a route row is undocumented or a documented path is no route.
 *
 * Only this script imports the handlers' schemas together: each Lambda bundle keeps its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { clientAuthMethods } from '../lambdas/core/client-auth/registry';
import { grantTypes } from '../lambdas/core/grants/grant-types';
import { grants } from '../lambdas/core/grants/registry';
import { registrationMetadataSchema } from '../lambdas/core/registration';
import { consentForm, authorizeSignInForm, signInForm } from '../lambdas/http/forms';
import {
  forgotPasswordForm,
  resendCodeForm,
  stepUpForm,
  resetPasswordForm,
  resetPageQuery,
  resetPasskeysRemoveForm,
  signInCodeForm,
  verifyEmailBody,
} from '../lambdas/http/account-forms';
import { apiKeyExchangeFields } from '../lambdas/http/api-key-request';
import { passkeyRegisterForm, passkeyRemoveForm, passkeySignInForm } from '../lambdas/http/passkey-forms';
import { tokenOperationParams, tokenRequestParams } from '../lambdas/http/token-params';
import { pushedRequestParams } from '../lambdas/http/pushed-request-params';
import { schema as createApiKeyBody } from '../lambdas/handlers/admin/api-keys-create';
import { schema as createClientBody } from '../lambdas/handlers/admin/clients-create';
import { filter as listClientsQuery } from '../lambdas/handlers/admin/clients-list';
import { filter as activityQuery } from '../lambdas/handlers/admin/activity-list';
import { filter as auditQuery } from '../lambdas/handlers/admin/audit-list';
import { filter as listUsersQuery } from '../lambdas/handlers/admin/users-list';
import { filter as listApiKeysQuery } from '../lambdas/handlers/admin/api-keys-list';
import { schema as updateClientBody } from '../lambdas/handlers/admin/clients-update';
import { schema as rotateClientSecretBody } from '../lambdas/handlers/admin/clients-secret-rotate';
import { schema as createEnvironmentBody } from '../lambdas/handlers/admin/environments-create';
import { schema as createScopeBody } from '../lambdas/handlers/admin/scopes-create';
import { schema as createUserBody } from '../lambdas/handlers/admin/users-create';
import { schema as updateUserBody } from '../lambdas/handlers/admin/users-update';
import { schema as updateSettingsBody } from '../lambdas/handlers/admin/settings-update';
import { schema as createTrustedIssuerBody } from '../lambdas/handlers/admin/trusted-issuers-create';
import { schema as updateTrustedIssuerBody } from '../lambdas/handlers/admin/trusted-issuers-update';
import { routes, type AuthKind, type Route } from '../lambdas/routes';

type Json = Record<string, unknown>;
type Media = 'json' | 'form' | 'image/png' | 'image/jpeg' | 'image/webp';

/** What a route's row does not say: its words, its input schemas and its success answer. */
interface OperationDoc {
  readonly summary: string;
  readonly description?: string;
  readonly body?: { readonly schema: z.ZodMiniType | Json; readonly media: readonly Media[]; readonly required?: boolean };
  readonly query?: z.ZodMiniType;
  /** Request headers beside authentication (a DPoP proof). */
  readonly headers?: readonly { readonly name: string; readonly description: string }[];
  /** Status and what it carries; `html` pages, `redirect` (Location), `empty` (no body). */
  readonly success: readonly [number, 'json' | 'html' | 'redirect' | 'empty', string];
}

/** zod 4's conversion of the input side (defaults make fields optional), as OpenAPI 3.1's JSON Schema. */
function jsonSchema(schema: z.ZodMiniType | Json): Json {
  if (!('_zod' in schema)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema as z.ZodMiniType, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

const form = (schema: z.ZodMiniType | Json) => ({ schema, media: ['form'] as const, required: true });
const json = (schema: z.ZodMiniType | Json) => ({ schema, media: ['json'] as const, required: true });

/** Every grant's own parameters beside the common ones (RFC 6749 4.1.3, 6, 4.4). */
const tokenBody: Json = {
  oneOf: grants.map((grant) => {
    const common = jsonSchema(tokenRequestParams);
    const own = jsonSchema(grant.parameters);
    return {
      title: grant.type,
      type: 'object',
      properties: {
        ...(common.properties as Json),
        grant_type: { const: grant.type },
        ...(own.properties as Json),
      },
      required: ['grant_type', ...((own.required as string[] | undefined) ?? [])],
    };
  }),
};

/** Behaviour JWTB-1: the one grant a request without client credentials may use. */
const jwtBearerWithoutClient =
  'The JWT-bearer grant also takes a request with no client authentication at all: a workload presenting its platform token (RFC 7523 2.1, behaviour JWTB-1).';

/** The client-authentication methods an endpoint takes (RFC 6749 2.3), from their registry. */
const clientAuthentication = (methods: readonly { readonly description: string }[]) =>
  `Client authentication, one of: ${methods.map((method) => method.description).join('; ')}.`;

const authorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.optional(z.string()),
  code_challenge: z.string(),
  code_challenge_method: z.literal('S256'),
  scope: z.optional(z.string()),
  state: z.optional(z.string()),
  resource: z.optional(z.string()),
  prompt: z.optional(z.string()),
  max_age: z.optional(z.string()),
  nonce: z.optional(z.string()),
  // RFC 9126 4: with client_id, in place of every other parameter (behaviour AUTHZ-17).
  request_uri: z.optional(z.string()),
  // RFC 9449 10, behaviour CODE-5.
  dpop_jkt: z.optional(z.string()),
});

/** RFC 9449 4, behaviour TOKEN-7 and BEARER-5: the proof header of the endpoints that take one. */
const dpopHeader = (what: string) => [{ name: 'DPoP', description: `A DPoP proof JWT (RFC 9449 4.2): ${what}` }];

const apiKeyExchangeBody: Json = {
  ...jsonSchema(apiKeyExchangeFields),
  properties: {
    api_key: { type: 'string', description: 'The API key, when not sent as `Authorization: Bearer`.' },
    ...(jsonSchema(apiKeyExchangeFields).properties as Json),
  },
};

/** Behaviour MFA-11: what every admin route answers a user token whose sign-in lacks the factor the policy now asks for. */
const adminUserFactorNote =
  "An admin user's token whose sign-in lacks a second factor the MFA policy now requires: 401 `insufficient_user_authentication` with a `WWW-Authenticate` challenge (RFC 9470 section 3, behaviour MFA-11).";
/** Behaviour EDGE-4, MFA-11: the key routes take self-service callers from anywhere, admin callers only from the allowlist. */
const keyRouteNote =
  'Also for self-service callers (their own token of this client, from any address; a sign-in lacking a second factor the MFA policy now requires: 401 `insufficient_user_authentication`). Admin callers from outside `ADMIN_ALLOWED_CIDRS`: 403 `access_denied` (behaviour EDGE-4).';
const admin = (summary: string, success: OperationDoc['success'], extra: Partial<OperationDoc> = {}): OperationDoc => ({
  summary,
  success,
  ...extra,
  description: [extra.description, adminUserFactorNote].filter(Boolean).join(' '),
});

/** By route name (`routes[i].name`). */
export const operationDocs: Readonly<Record<string, OperationDoc>> = {
  OAuthServerMetadata: { summary: 'Authorization server metadata (RFC 8414)', success: [200, 'json', 'The metadata document'] },
  OpenIdConfiguration: { summary: 'OpenID Connect discovery document', success: [200, 'json', 'The metadata document'] },
  OpenApiDocument: { summary: 'This OpenAPI document', success: [200, 'json', 'OpenAPI 3.1'] },
  Health: { summary: 'Uptime check', success: [200, 'json', '`{ status: "ok", time }`'] },
  Register: {
    summary: 'Dynamic client registration (RFC 7591)',
    description: 'Registers a public PKCE client in the DCR environment; a per-IP daily cap applies.',
    body: json(registrationMetadataSchema),
    success: [201, 'json', 'The registered client (RFC 7591 3.2.1)'],
  },
  SignInPage: { summary: 'Sign-in page', success: [200, 'html', 'The sign-in form'] },
  SignIn: {
    summary: 'Sign-in form post',
    body: form(signInForm),
    success: [303, 'redirect', 'Signed in; or 200 with the sign-in code page'],
  },
  SignOut: { summary: 'Sign out', success: [204, 'empty', 'Signed out (a page asking for text/html gets 200 with a page)'] },
  Session: { summary: 'The current sign-in session', success: [200, 'json', 'The signed-in user'] },
  Authorize: {
    summary: 'Authorization request (OAuth 2.1 4.1.1, RFC 7636, RFC 8707)',
    description:
      'Or a pushed request: `client_id` and the `request_uri` that `POST /api/par` returned, without the other parameters (RFC 9126 4).',
    query: authorizeQuery,
    success: [303, 'redirect', 'To the redirect URI with `code`, `state` and `iss` (RFC 9207); or 200 with the sign-in or consent page'],
  },
  AuthorizeSignIn: {
    summary: 'Sign-in step of an authorization request',
    body: form(authorizeSignInForm),
    success: [303, 'redirect', 'On with the authorization; or 200 with the sign-in code or consent page'],
  },
  AuthorizeComplete: { summary: 'Consent step', body: form(consentForm), success: [303, 'redirect', 'To the redirect URI'] },
  PushedAuthorizationRequest: {
    summary: 'Pushed authorization request (RFC 9126)',
    description: `The authorization request's parameters, validated as at \`GET /api/authorize\`; \`request_uri\` is refused (RFC 9126 2.1). ${clientAuthentication(clientAuthMethods)} Then \`GET /api/authorize?client_id=…&request_uri=…\`, single use.`,
    body: form(pushedRequestParams),
    success: [
      201,
      'json',
      '`{ request_uri, expires_in }` (RFC 9126 2.2): a `urn:ietf:params:oauth:request_uri:` reference, valid 60 seconds',
    ],
  },
  Token: {
    summary: `Token endpoint: ${grantTypes.join(', ')}`,
    description: `${clientAuthentication(clientAuthMethods)} ${jwtBearerWithoutClient}`,
    body: form(tokenBody),
    headers: dpopHeader('the access token is then bound to its key (`cnf.jkt`, `token_type: DPoP`).'),
    success: [200, 'json', 'RFC 6749 5.1 token response'],
  },
  ApiKeyToken: {
    summary: 'Exchange an API key for an access token',
    body: { schema: apiKeyExchangeBody, media: ['form', 'json'], required: false },
    success: [200, 'json', 'RFC 6749 5.1 token response (no refresh token)'],
  },
  Introspect: {
    summary: 'Token introspection (RFC 7662)',
    description: clientAuthentication(clientAuthMethods.filter((method) => method.clientType === 'confidential')),
    body: form(tokenOperationParams),
    success: [200, 'json', 'RFC 7662 2.2'],
  },
  Revoke: {
    summary: 'Token revocation (RFC 7009)',
    description: clientAuthentication(clientAuthMethods),
    body: form(tokenOperationParams),
    success: [200, 'empty', 'Revoked, or not a token'],
  },
  UserInfo: {
    summary: 'OpenID Connect userinfo',
    headers: dpopHeader('required with `Authorization: DPoP <token>` for a DPoP-bound token.'),
    success: [200, 'json', 'Claims by scope'],
  },
  ValidateToken: {
    summary: 'Whether a bearer token of this server is valid',
    headers: dpopHeader('required with `Authorization: DPoP <token>` for a DPoP-bound token.'),
    success: [200, 'json', '`{ active, client_id, scope, aud, exp }`'],
  },
  SignInCode: { summary: 'Enter the mailed sign-in code', body: form(signInCodeForm), success: [303, 'redirect', 'Signed in'] },
  SignInCodeResend: {
    summary: 'Mail a new sign-in code',
    body: form(resendCodeForm),
    success: [200, 'html', 'The code form again (JSON for callers that do not ask for HTML)'],
  },
  SignInStepUp: {
    summary: 'Mail the first code for a session that now needs a second factor (step up)',
    body: form(stepUpForm),
    success: [200, 'html', 'The code form (JSON for callers that do not ask for HTML)'],
  },
  EmailVerificationRequest: { summary: 'Mail an email verification code', success: [202, 'json', 'Sent'] },
  EmailVerificationVerify: {
    summary: 'Verify the address with the mailed code',
    body: { schema: verifyEmailBody, media: ['json', 'form'], required: true },
    success: [200, 'json', 'Verified'],
  },
  ForgotPasswordPage: { summary: 'Forgot-password page', success: [200, 'html', 'The form'] },
  ForgotPassword: {
    summary: 'Request a password reset link',
    body: form(forgotPasswordForm),
    success: [200, 'html', 'The same answer for every address'],
  },
  ResetPasswordPage: {
    summary: 'The mailed reset link: 303 to the bare path with the token in a cookie (behaviour RESET-8); without a token, the form',
    query: resetPageQuery,
    success: [200, 'html', 'The form (the link itself answers 303)'],
  },
  ResetPassword: {
    summary: "Set a new password with the mailed link (the token from the link's cookie, or the token field)",
    body: form(resetPasswordForm),
    success: [
      200,
      'html',
      'Done: the passkeys and self-service API keys that survive it, and ending them all (behaviour RESET-9, RESET-13)',
    ],
  },
  ResetPasskeysRemove: {
    summary:
      "The reset completion's 'Remove all': every passkey removed and every self-service API key revoked, authenticated by its recovery cookie (10 minutes, single use)",
    body: form(resetPasskeysRemoveForm),
    success: [200, 'html', 'Removed and revoked, listed by name; the user is mailed'],
  },
  PasskeysPage: {
    summary: "The signed-in user's passkeys: list, add, remove (a sign-in within 10 minutes)",
    success: [200, 'html', 'The passkeys page'],
  },
  PasskeyRegister: {
    summary: 'Add a passkey: the registration response (PublicKeyCredential.toJSON() as JSON text)',
    body: form(passkeyRegisterForm),
    success: [303, 'redirect', 'Added; back to the passkeys page'],
  },
  PasskeyRemove: {
    summary: 'Remove one of your passkeys',
    body: form(passkeyRemoveForm),
    success: [303, 'redirect', 'Removed; back to the passkeys page'],
  },
  PasskeySignInOptions: {
    summary: 'Options of a passkey sign-in ceremony (PublicKeyCredentialRequestOptionsJSON)',
    success: [200, 'json', 'The options'],
  },
  PasskeySignIn: {
    summary: 'Sign in with a passkey: the assertion (PublicKeyCredential.toJSON() as JSON text)',
    body: form(passkeySignInForm),
    success: [303, 'redirect', 'Signed in; on to return_to or the authorization'],
  },
  AdminListUserPasskeys: admin("List a user's passkeys", [200, 'json', 'Passkeys']),
  AdminRemoveUserPasskey: admin("Remove a user's passkey", [204, 'empty', 'Removed']),
  AdminSendPasswordReset: admin('Mail a user a password reset link', [202, 'json', 'Sent']),
  AdminListUsers: admin('List users', [200, 'json', 'Users, newest first'], {
    query: listUsersQuery,
    description:
      '`search`: an address, an exact user id, or a part of a name or address (any case). `environment_id`: only the users granted it (then by user id). `admin`: only administrators or only the others. Paged by `limit` and `cursor`; a rare match may answer a short page with a `next_cursor` (behaviour ADMIN-22).',
  }),
  AdminCreateUser: admin('Create a user', [201, 'json', 'The user'], { body: json(createUserBody) }),
  AdminGetUser: admin('Get a user', [200, 'json', 'The user']),
  AdminUpdateUser: admin('Update a user', [200, 'json', 'The user'], { body: json(updateUserBody) }),
  AdminDeleteUser: admin('Delete a user', [204, 'empty', 'Deleted']),
  AdminListUserEnvironments: admin("List a user's environments", [200, 'json', 'Environments']),
  AdminGrantEnvironment: admin('Grant a user an environment', [200, 'json', 'The grant']),
  AdminRevokeEnvironment: admin("Revoke a user's environment", [204, 'empty', 'Revoked']),
  AdminListEnvironments: admin('List environments', [200, 'json', 'Environments']),
  AdminCreateEnvironment: admin('Create an environment', [201, 'json', 'The environment'], { body: json(createEnvironmentBody) }),
  AdminDeleteEnvironment: admin('Delete an environment', [204, 'empty', 'Deleted']),
  AdminListScopes: admin('List scopes', [200, 'json', 'Scopes']),
  AdminCreateScope: admin('Create a scope', [201, 'json', 'The scope'], { body: json(createScopeBody) }),
  AdminDeleteScope: admin('Delete a scope', [204, 'empty', 'Deleted'], {
    description:
      "The name is percent-encoded in the path. 409 for a built-in scope (`openid`, `profile`, `email`, `admin`), while any client is granted it (the description counts them and names up to 3) and while a trusted issuer's workload rule gives it; tokens already issued with it run out on their own.",
  }),
  AdminListTrustedIssuers: admin('List trusted issuers', [200, 'json', 'Trusted issuers, newest first'], {
    description: 'The issuers whose assertions the JWT-bearer grant accepts (behaviour TRUST-1), paged like the other admin lists.',
  }),
  AdminCreateTrustedIssuer: admin('Trust an issuer', [201, 'json', 'The trusted issuer'], {
    body: json(createTrustedIssuerBody),
    description:
      'An https `issuer` without query or fragment; exactly one of `jwks` (public keys, each with a `kid`) and `jwks_uri` (https); an existing `environment_id`. `id-jag`: `user_claim` (default `sub`), `create_users` and `allow_refresh_tokens` (default false). `workload`: `rules`, each a `subject` (exact, or `*` for one or more characters but `/`, `**` for any), optional string `claims`, catalog `scopes` and absolute `resources`. 409 when the issuer is already trusted for id-jag in that environment, or as a workload issuer in any environment (behaviour TRUST-2..TRUST-6).',
  }),
  AdminGetTrustedIssuer: admin('Get a trusted issuer', [200, 'json', 'The trusted issuer']),
  AdminUpdateTrustedIssuer: admin('Update a trusted issuer', [200, 'json', 'The trusted issuer'], {
    body: json(updateTrustedIssuerBody),
    description:
      'Everything but `issuer`, `profile` and `environment_id` (a different trust: delete and create). New keys (`jwks` or `jwks_uri`) replace the old ones; `description: null` removes it (behaviour TRUST-7).',
  }),
  AdminDeleteTrustedIssuer: admin('Delete a trusted issuer', [204, 'empty', 'Deleted'], {
    description: 'Trusted by no container after at most 30 s; tokens already issued run out on their own (behaviour TRUST-2, TRUST-8).',
  }),
  AdminListClients: admin('List clients', [200, 'json', 'Clients, newest first'], {
    query: listClientsQuery,
    description:
      '`search`: an exact client id (found whatever its `registration_type`), or a part of the name or id (any case). `type` and `environment_id` filter. Paged by `limit` and `cursor`; a rare match may answer a short page with a `next_cursor` (behaviour ADMIN-21).',
  }),
  AdminCreateClient: admin('Create a client', [201, 'json', 'The client, with its secret once'], { body: json(createClientBody) }),
  AdminGetClient: admin('Get a client', [200, 'json', 'The client']),
  AdminUpdateClient: admin('Update a client', [200, 'json', 'The client'], { body: json(updateClientBody) }),
  AdminDeleteClient: admin('Delete a client', [204, 'empty', 'Deleted']),
  AdminRotateClientSecret: admin(
    "Rotate a client's secret",
    [200, 'json', 'The new secret, once, and when the previous one stops working (behaviour ADMIN-20)'],
    { body: json(rotateClientSecretBody) },
  ),
  AdminCreateApiKey: admin('Create an API key', [201, 'json', 'The key, with its secret once'], {
    body: json(createApiKeyBody),
    description: `Unlike the rest of the admin API, \`userId\` and \`expiresAt\` are camelCase: they are the names the original specification gives (spec 2.4), kept as they are so existing callers keep working. ${keyRouteNote}`,
  }),
  AdminListApiKeys: admin("List a client's API keys", [200, 'json', 'Keys newest first, never their secrets'], {
    query: listApiKeysQuery,
    description: `\`status\`: only the active, revoked or expired keys (behaviour ADMIN-23). ${keyRouteNote}`,
  }),
  AdminRevokeApiKey: admin('Revoke an API key', [200, 'json', 'The revoked key'], { description: keyRouteNote }),
  DashboardHome: {
    summary: 'Admin dashboard: overview (an admin session; a non-admin gets 403)',
    success: [200, 'html', 'The overview page; 303 to sign-in without a session'],
  },
  DashboardPage: {
    summary: 'Admin dashboard pages: clients, API keys, token activity, users, environments, scopes, audit log',
    success: [200, 'html', 'The page'],
    description: 'Server-rendered HTML for browsers, not an API: the admin API (/api/admin/*) offers the same operations.',
  },
  DashboardAction: {
    summary: 'Admin dashboard form posts (same-origin, with the session-bound `csrf` field)',
    success: [303, 'redirect', 'Done; back to a page (201 with a page showing a new secret or key once)'],
    description: 'Every change is written to the audit log with the admin as actor.',
  },
  DashboardLogoUpload: {
    summary: 'Admin dashboard: upload the site logo (multipart/form-data with `csrf` and the `logo` file), or remove it (`remove=logo`)',
    success: [303, 'redirect', 'Done; back to the settings page'],
    description:
      'The same checks as PUT /api/admin/site-logo (type from the bytes, 512 KiB, 1024x1024, no SVG). Audited as `site.logo.update` or `site.logo.delete`.',
  },
  AdminListClientActivity: admin("List a client's token activity", [200, 'json', 'Token requests, newest first, with failure reasons'], {
    query: activityQuery,
    description:
      'Every token request and API-key exchange of the client, success or failure (with the real reason), newest first (behaviour LOG-16); 404 for an unknown client. Paged by `limit` and `cursor`; a rare filter may answer a short page with a `next_cursor`.',
  }),
  AdminListAuditLog: admin('List the admin audit log', [200, 'json', 'Audit entries, newest first'], {
    query: auditQuery,
    description:
      '`to` defaults to now, `from` to 7 days before it, at most 92 days apart. `type` is one entry type (`api_key.revoke`) or a family (`user`); `actor` a user or client id; `subject` the id (or scope) an entry is about (behaviour LOG-15). Paged by `limit` and `cursor`.',
  }),
  AdminGetSettings: admin('Get the site settings', [200, 'json', 'Title, MFA policy (and whether it is stored or MFA_POLICY), logo']),
  AdminUpdateSettings: admin('Change the site settings', [200, 'json', 'The settings after the change'], {
    body: json(updateSettingsBody),
    description:
      'Omitted fields stay as they are; `mfa_policy: null` forgets the stored policy, so MFA_POLICY applies again. The MFA policy counts from the next sign-in; pages may show the old title for up to a minute. Audited as `site.settings.update`.',
  }),
  AdminPutSiteLogo: admin('Upload the site logo', [200, 'json', 'The settings, with the logo URL'], {
    body: { schema: { type: 'string', format: 'binary' }, media: ['image/png', 'image/jpeg', 'image/webp'], required: true },
    description:
      'The raw image as the body. The type is checked from the bytes and must match Content-Type; at most 512 KiB and 1024x1024 pixels; SVG is refused (415 as Content-Type, 400 as bytes). Stored as `branding/logo-<sha256>.<ext>` on the JWKS CDN. Audited as `site.logo.update`.',
  }),
  AdminDeleteSiteLogo: admin('Remove the site logo', [204, 'empty', 'Removed (also when there was none)']),
};

const securityByAuth: Record<AuthKind, Json[]> = {
  none: [],
  session: [{ session: [] }],
  client: [{ clientSecretBasic: [] }, {}],
  bearer: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  'api-key': [{ apiKey: [] }, {}],
};

const mediaTypes: Record<Media, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/webp': 'image/webp',
};
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(route: Route, doc: OperationDoc): Json {
  const pathParameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = doc.query ? jsonSchema(doc.query) : undefined;
  const queryParameters = Object.entries((query?.properties as Record<string, Json> | undefined) ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: ((query?.required as string[] | undefined) ?? []).includes(name),
    schema,
  }));
  const headerParameters = (doc.headers ?? []).map(({ name, description }) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  const [status, kind, description] = doc.success;
  const success =
    kind === 'json'
      ? { description, content: { 'application/json': { schema: { type: 'object' } } } }
      : kind === 'html'
        ? { description, content: { 'text/html': { schema: { type: 'string' } } } }
        : kind === 'redirect'
          ? { description, headers: { Location: { schema: { type: 'string', format: 'uri-reference' } } } }
          : { description };
  return {
    operationId: route.name,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [tagOf(route)],
    security: securityByAuth[route.auth],
    ...(pathParameters.length + queryParameters.length + headerParameters.length > 0
      ? { parameters: [...pathParameters, ...queryParameters, ...headerParameters] }
      : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: doc.body.required ?? true,
            content: Object.fromEntries(doc.body.media.map((m) => [mediaTypes[m], { schema: jsonSchema(doc.body!.schema) }])),
          },
        }
      : {}),
    responses: {
      [String(status)]: success,
      '4XX': errorResponse('Refused: the error code and a readable description (RFC 6749 5.2 shape, behaviour ERR-1)'),
      '5XX': errorResponse('Server trouble: `server_error` or `temporarily_unavailable` with Retry-After'),
    },
    'x-cross-origin': route.crossOrigin === true,
    // Behaviour EDGE-7: a row of a named group is counted with the group's other rows.
    ...(route.edge
      ? {
          'x-rate-limit': `${route.edge.limit} per ${route.edge.windowSeconds} s per client IP at the edge${
            route.edge.shared ? `, counted together with the other ${route.edge.shared.name} requests` : ''
          }`,
        }
      : {}),
  };
}

function tagOf(route: Route): string {
  if (route.path.startsWith('/api/admin/')) return 'admin';
  if (route.path.startsWith('/api/token') || route.path === '/api/userinfo') return 'tokens';
  if (route.auth === 'none' && route.method === 'GET' && !route.path.startsWith('/api/')) return 'pages';
  return route.path.startsWith('/.well-known') || route.path === '/openapi.json' || route.path === '/api/health'
    ? 'discovery'
    : 'browser and registration';
}

/** The document; `routeTable` is a parameter so tests can show an undocumented row fails. */
export function openApiDocument(routeTable: readonly Route[] = routes): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routeTable) {
    const doc = operationDocs[route.name];
    if (!doc) throw new Error(`Route ${route.name} (${route.method} ${route.path}) has no entry in bin/openapi.ts operationDocs.`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate OAuth 2.1 authorization server',
      version: '0.1.0',
      description:
        'Every path is relative to the issuer (`BASE_URL`). Errors are `{ "error", "error_description" }` (RFC 6749 5.2). The public signing keys are at the `jwks_uri` of the discovery documents (a CDN in AWS). Generated from lambdas/routes.ts by bin/openapi.ts; the behaviour reference is docs/behaviour/.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          description: 'RFC 6749 5.2 error response',
          required: ['error'],
          properties: {
            error: { type: 'string', description: 'An OAuth error code, e.g. invalid_request, invalid_client, invalid_grant' },
            error_description: { type: 'string' },
          },
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of this server' },
        clientSecretBasic: {
          type: 'http',
          scheme: 'basic',
          description: `client_secret_basic (RFC 6749 2.3.1); the other client authentication methods (${clientAuthMethods
            .filter((method) => method.name !== 'client_secret_basic')
            .map((method) => method.name)
            .join(', ')}) send client_id in the body instead`,
        },
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, exchanged for an access token' },
        session: { type: 'apiKey', in: 'cookie', name: '__Host-session', description: 'The sign-in session of the pages' },
      },
    },
  };
}

export const openApiFile = join(__dirname, '..', 'docs', 'openapi.json');
export const serializeOpenApi = (document: Json): string => `${JSON.stringify(document, null, 2)}\n`;

if (require.main === module) {
  writeFileSync(openApiFile, serializeOpenApi(openApiDocument()));
  process.stdout.write(`wrote ${openApiFile}\n`);
}
