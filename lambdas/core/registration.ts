/**
 * RFC 7591 dynamic client registration for public clients (behaviour REG-3..REG-5): MCP clients
 * register themselves and become public, PKCE-only clients in the DCR environment; one that
 * registers keys becomes a confidential private_key_jwt client (behaviour REG-11).
 */
import * as z from 'zod/mini';
import { InvalidClientMetadataError, InvalidRedirectUriError } from './errors';
import { clientAuthMethodsFor, type ClientAuthMethodName } from './client-auth/auth-methods';
import { checkClientKeys, type ClientKeys } from './client-keys';
import type { GrantType } from './grants/grant-types';
import type { Client } from './model';
import type { ScopeDefinition } from './ports';
import { redirectUriProblem } from './redirect-uri';
import { formatScope } from './scope';
import { describeIssue } from './zod-issues';

export const registrationLimits = {
  clientName: 200,
  redirectUris: 10,
  scope: 1000,
} as const;

/** The RFC 7591 2 metadata this server reads; exported for the OpenAPI document (bin/openapi.ts). */
export const registrationMetadataSchema = z.object({
  client_name: z.optional(z.string().check(z.minLength(1), z.maxLength(registrationLimits.clientName))),
  redirect_uris: z.array(z.string()).check(z.minLength(1), z.maxLength(registrationLimits.redirectUris)),
  token_endpoint_auth_method: z.optional(z.string()),
  grant_types: z.optional(z.array(z.string()).check(z.minLength(1), z.maxLength(4))),
  response_types: z.optional(z.array(z.string()).check(z.minLength(1), z.maxLength(4))),
  scope: z.optional(z.string().check(z.maxLength(registrationLimits.scope))),
  application_type: z.optional(z.enum(['web', 'native'])),
  // RFC 9126 6 (behaviour AUTHZ-18): the client asks to be held to pushed requests.
  require_pushed_authorization_requests: z.optional(z.boolean()),
  // private_key_jwt (behaviour REG-11): the client's public keys, checked by core/client-keys.ts.
  jwks: z.optional(z.unknown()),
  jwks_uri: z.optional(z.string()),
  token_endpoint_auth_signing_alg: z.optional(z.string()),
  // RFC 9449 5.2, behaviour TOKEN-9.
  dpop_bound_access_tokens: z.optional(z.boolean()),
});

/** Dynamic clients are public and authenticate with client_id alone (RFC 7591 2, behaviour REG-3, REG-5). */
const publicClientAuthMethod: ClientAuthMethodName = 'none';
/** ...unless they register keys: then confidential, with no secret (RFC 7523 2.2, behaviour REG-11). */
const keyedClientAuthMethod: ClientAuthMethodName = 'private_key_jwt';
const dynamicClientAuthMethods: readonly string[] = [...clientAuthMethodsFor('public'), keyedClientAuthMethod];

/**
 * The grants a dynamic client may register (behaviour REG-3): the browser flow only, named here
 * rather than derived from the registry, so a new grant reaches anonymous third-party clients
 * only by a decision made here.
 */
export const dynamicClientGrantTypes: readonly GrantType[] = ['authorization_code', 'refresh_token'];

export interface ValidatedRegistration {
  readonly clientName?: string;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly GrantType[];
  readonly scopes: readonly string[];
  readonly requirePushedAuthorizationRequests?: boolean;
  /** A private_key_jwt client's keys (behaviour REG-11); absent for a public client. */
  readonly keys?: ClientKeys;
  readonly dpopBoundAccessTokens?: boolean;
}

/** The keys of a private_key_jwt registration, or none for a public one (behaviour REG-11). */
function registeredKeys(
  method: string,
  metadata: { jwks?: unknown; jwks_uri?: string; token_endpoint_auth_signing_alg?: string },
  allowLoopbackHttp: boolean,
): ClientKeys | undefined {
  const given = metadata.jwks !== undefined || metadata.jwks_uri !== undefined || metadata.token_endpoint_auth_signing_alg !== undefined;
  if (method !== keyedClientAuthMethod) {
    if (given) throw new InvalidClientMetadataError(`jwks, jwks_uri: only for token_endpoint_auth_method "${keyedClientAuthMethod}".`);
    return undefined;
  }
  const checked = checkClientKeys(
    { jwks: metadata.jwks, jwksUri: metadata.jwks_uri, signingAlg: metadata.token_endpoint_auth_signing_alg },
    allowLoopbackHttp,
  );
  if ('problem' in checked) throw new InvalidClientMetadataError(checked.problem);
  return checked.keys;
}

/** Validates the metadata; every problem names the field, and bad redirect URIs get their own code. */
export function validateRegistration(
  input: unknown,
  catalog: readonly ScopeDefinition[],
  /** The local server: a jwks_uri may be http on loopback (behaviour REG-11). */
  allowLoopbackJwksUri = false,
): ValidatedRegistration {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new InvalidClientMetadataError('The request body must be a JSON object of client metadata.');
  }
  const redirectUris = (input as { redirect_uris?: unknown }).redirect_uris;
  if (redirectUris === undefined || (Array.isArray(redirectUris) && redirectUris.length === 0)) {
    throw new InvalidRedirectUriError('redirect_uris is required: at least one redirect URI.');
  }
  const parsed = z.safeParse(registrationMetadataSchema, input, { error: describeIssue });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'metadata');
    const message = `${issue.path.join('.') || 'metadata'}: ${issue.message}`;
    throw field === 'redirect_uris' ? new InvalidRedirectUriError(message) : new InvalidClientMetadataError(message);
  }
  const metadata = parsed.data;
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidRedirectUriError(`redirect_uris: ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  const method = metadata.token_endpoint_auth_method ?? publicClientAuthMethod;
  if (!dynamicClientAuthMethods.includes(method)) {
    const supported = dynamicClientAuthMethods.map((name) => `"${name}"`);
    throw new InvalidClientMetadataError(
      `token_endpoint_auth_method: only ${supported.join(', ')} are supported; dynamic clients are public and use PKCE, or sign assertions with registered keys.`,
    );
  }
  const keys = registeredKeys(method, metadata, allowLoopbackJwksUri);
  const grantTypes = [...new Set(metadata.grant_types ?? ['authorization_code'])];
  const unsupportedGrant = grantTypes.find((g) => !(dynamicClientGrantTypes as readonly string[]).includes(g));
  if (unsupportedGrant) throw new InvalidClientMetadataError(`grant_types: "${unsupportedGrant}" is not available to dynamic clients.`);
  if (!grantTypes.includes('authorization_code')) {
    throw new InvalidClientMetadataError('grant_types: must include "authorization_code".');
  }
  const responseTypes = metadata.response_types ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) throw new InvalidClientMetadataError('response_types: only "code" is supported.');

  const offered = catalog.filter((s) => s.discoverable).map((s) => s.name);
  const requested = metadata.scope === undefined ? offered : [...new Set(metadata.scope.split(' ').filter(Boolean))];
  const unknown = requested.filter((s) => !offered.includes(s));
  if (unknown.length > 0)
    throw new InvalidClientMetadataError(`scope: unknown scope ${unknown.map((s) => `"${s.slice(0, 100)}"`).join(', ')}.`);

  return {
    ...(metadata.client_name !== undefined ? { clientName: metadata.client_name } : {}),
    redirectUris: [...new Set(metadata.redirect_uris)],
    grantTypes: grantTypes as GrantType[],
    scopes: requested,
    ...(metadata.require_pushed_authorization_requests ? { requirePushedAuthorizationRequests: true } : {}),
    ...(keys ? { keys } : {}),
    ...(metadata.dpop_bound_access_tokens ? { dpopBoundAccessTokens: true } : {}),
  };
}

export interface DynamicClientFacts {
  readonly clientId: string;
  readonly environmentId: string;
  readonly createdAt: string;
}

export function dynamicClient(registration: ValidatedRegistration, facts: DynamicClientFacts): Client {
  return {
    clientId: facts.clientId,
    name: registration.clientName ?? 'Unnamed dynamic client',
    type: registration.keys ? 'confidential' : 'public',
    environmentId: facts.environmentId,
    redirectUris: registration.redirectUris,
    grantTypes: registration.grantTypes,
    scopes: registration.scopes,
    registrationType: 'dynamic',
    admin: false,
    test: false,
    ...(registration.requirePushedAuthorizationRequests ? { requirePushedAuthorizationRequests: true } : {}),
    ...(registration.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
    createdAt: facts.createdAt,
    ...registration.keys,
  };
}

/** RFC 7591 3.2.1 (behaviour REG-5): no secret of any kind for a public client. */
export function registrationResponse(client: Client, registration: ValidatedRegistration): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(registration.clientName !== undefined ? { client_name: registration.clientName } : {}),
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: registration.keys ? keyedClientAuthMethod : publicClientAuthMethod,
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
    ...(client.tokenEndpointAuthSigningAlg ? { token_endpoint_auth_signing_alg: client.tokenEndpointAuthSigningAlg } : {}),
    scope: formatScope(client.scopes),
    ...(client.requirePushedAuthorizationRequests ? { require_pushed_authorization_requests: true } : {}),
    ...(client.dpopBoundAccessTokens ? { dpop_bound_access_tokens: true } : {}),
  };
}
