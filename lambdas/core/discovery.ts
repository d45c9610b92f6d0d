/**
 * Discovery documents: RFC 8414 authorization server metadata and the OpenID Connect
 * Discovery 1.0 document. Both are public and cacheable; they change only with a
 * redeploy (settings) or a scope change (admin API), so a short cache is safe.
 */
import { clientAuthMethodNames, clientAuthMethodsFor } from './client-auth/auth-methods';
import { dpopSigningAlgorithms } from './dpop';
import { grantTypes, idJagGrantProfile } from './grants/grant-types';
import { assertionSigningAlgorithms } from './jwt-assertions';
import { endpointPaths } from './paths';
import type { ScopeDefinition } from './ports';

export type DiscoveryDocument = Record<string, unknown>;

/** The settings discovery names (the service's settings, lambdas/config/settings.ts, have them). */
export interface DiscoverySettings {
  readonly baseUrl: string;
  readonly jwksUri: string;
  readonly dcr: { readonly enabled: boolean };
  readonly clientIdMetadataDocuments: boolean;
  readonly requirePushedAuthorizationRequests: boolean;
  readonly signingAlg: string;
}

export function authorizationServerMetadata(config: DiscoverySettings, scopes: readonly ScopeDefinition[]): DiscoveryDocument {
  const url = (path: string) => `${config.baseUrl}${path}`;
  return {
    issuer: config.baseUrl,
    authorization_endpoint: url(endpointPaths.authorize),
    token_endpoint: url(endpointPaths.token),
    // Behaviour DISC-3: advertised only while dynamic registration is enabled.
    ...(config.dcr.enabled ? { registration_endpoint: url(endpointPaths.register) } : {}),
    jwks_uri: config.jwksUri,
    introspection_endpoint: url(endpointPaths.introspect),
    revocation_endpoint: url(endpointPaths.revoke),
    userinfo_endpoint: url(endpointPaths.userinfo),
    scopes_supported: scopes.filter((s) => s.discoverable).map((s) => s.name),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...grantTypes],
    // Behaviour DISC-2: the ID-JAG processing rules are served with the JWT-bearer grant; which issuers are trusted is not said.
    authorization_grant_profiles_supported: [idJagGrantProfile],
    // Behaviour TOKEN-3: `none` is for public clients (dynamic registration), which prove possession with PKCE only.
    token_endpoint_auth_methods_supported: [...clientAuthMethodNames],
    // Behaviour INTRO-1: introspection only for clients that authenticate.
    introspection_endpoint_auth_methods_supported: [...clientAuthMethodsFor('confidential')],
    revocation_endpoint_auth_methods_supported: [...clientAuthMethodNames],
    // Behaviour TOKEN-6: what a private_key_jwt assertion may be signed with (RFC 8414 2).
    token_endpoint_auth_signing_alg_values_supported: [...assertionSigningAlgorithms],
    introspection_endpoint_auth_signing_alg_values_supported: [...assertionSigningAlgorithms],
    revocation_endpoint_auth_signing_alg_values_supported: [...assertionSigningAlgorithms],
    // OAuth 2.1: S256 only; `plain` is refused.
    code_challenge_methods_supported: ['S256'],
    // RFC 8707 resource indicators bind the token audience.
    resource_parameter_supported: true,
    // RFC 9207: the authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    ...(config.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    // RFC 9126 5, behaviour AUTHZ-14, AUTHZ-18.
    pushed_authorization_request_endpoint: url(endpointPaths.pushedAuthorizationRequest),
    require_pushed_authorization_requests: config.requirePushedAuthorizationRequests,
    // RFC 9449 5.1, behaviour DISC-7: exactly the algorithms a DPoP proof is accepted with.
    dpop_signing_alg_values_supported: [...dpopSigningAlgorithms],
  };
}

export function openIdConfiguration(config: DiscoverySettings, scopes: readonly ScopeDefinition[]): DiscoveryDocument {
  return {
    ...authorizationServerMetadata(config, scopes),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [config.signingAlg],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'name', 'email', 'email_verified'],
  };
}
