/**
 * For resource servers (an MCP server, an API) that rely on this authorization server:
 * validate bearer tokens against the published JWKS, requiring our issuer and the
 * resource's own URL as audience (behaviour RS-1, RFC 9068 section 4), and describe the resource
 * with RFC 9728 protected resource metadata so clients can discover where to get tokens.
 *
 * Depends only on `jose`; no call to the authorization server per request (the JWKS is
 * fetched once and re-fetched when an unknown `kid` appears, i.e. after a key rotation).
 */
import { errors, type JWTPayload } from 'jose';
import { createRemoteVerifier } from '../adapters/signing/verifier';

export interface ResourceServerOptions {
  /** The authorization server's issuer (`{base_url}`), compared exactly. */
  readonly issuer: string;
  /** The JWKS address (the authorization server's `jwks_uri`). */
  readonly jwksUri: string | URL;
  /** This resource's own URL: tokens must have been minted for it (`aud`, RFC 8707). */
  readonly resource: string;
  /** Scopes every token must carry. */
  readonly requiredScopes?: readonly string[];
  /** Accepted clock skew in seconds. @default 30 */
  readonly clockToleranceSeconds?: number;
}

export interface VerifiedAccessToken extends JWTPayload {
  readonly client_id: string;
  readonly scope?: string;
  readonly api_key_id?: string;
  readonly scopes: readonly string[];
}

/** A rejected token; `code` is the RFC 6750 error for the WWW-Authenticate header. */
export class BearerTokenError extends Error {
  constructor(
    readonly code: 'invalid_request' | 'invalid_token' | 'insufficient_scope',
    message: string,
    readonly status = code === 'insufficient_scope' ? 403 : code === 'invalid_request' ? 400 : 401,
  ) {
    super(message);
    this.name = 'BearerTokenError';
  }
}

/** Returns a function that verifies an `Authorization` header value or a bare token. */
export function createAccessTokenVerifier(options: ResourceServerOptions) {
  const verifier = createRemoteVerifier(String(options.jwksUri));
  const required = options.requiredScopes ?? [];
  return async (authorizationOrToken: string | undefined): Promise<VerifiedAccessToken> => {
    const value = authorizationOrToken?.trim() ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(value);
    const token = match ? match[1]! : value.includes(' ') ? '' : value;
    if (!token) throw new BearerTokenError('invalid_request', 'A bearer access token is required.', 401);
    let payload: JWTPayload;
    try {
      payload = await verifier.verify(token, {
        issuer: options.issuer,
        audience: options.resource,
        ...(options.clockToleranceSeconds !== undefined ? { clockToleranceSeconds: options.clockToleranceSeconds } : {}),
      });
    } catch (error) {
      const reason = error instanceof errors.JOSEError ? error.code : 'malformed';
      throw new BearerTokenError('invalid_token', `The access token was rejected (${reason}).`);
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const missing = required.filter((s) => !scopes.includes(s));
    if (missing.length > 0) throw new BearerTokenError('insufficient_scope', `The access token lacks the scope ${missing.join(' ')}.`);
    return { ...payload, client_id: String(payload.client_id ?? ''), scopes } as VerifiedAccessToken;
  };
}

export interface ProtectedResourceMetadataOptions {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/** RFC 9728 section 2: the document served at `metadataPath(resource)`. */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): Record<string, unknown> {
  return {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported ? { scopes_supported: [...options.scopesSupported] } : {}),
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
  };
}

/** RFC 9728 section 3.1: `/.well-known/oauth-protected-resource` inserted before the resource's path. */
export function metadataPath(resource: string): string {
  const { pathname } = new URL(resource);
  return `/.well-known/oauth-protected-resource${pathname === '/' ? '' : pathname}`;
}

/** The absolute metadata URL for a resource. */
export function metadataUrl(resource: string): string {
  return new URL(metadataPath(resource), resource).toString();
}

/** RFC 6750 3 and RFC 9728 5.1: the challenge that points clients at the metadata. */
export function wwwAuthenticate(resource: string, error?: BearerTokenError): string {
  const parts = [`resource_metadata="${metadataUrl(resource)}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.message.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
