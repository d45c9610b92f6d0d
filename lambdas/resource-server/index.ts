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
import { dpopSigningAlgorithms } from '../core/dpop';
import { dpopAlgs, memoryReplayCache, refusedProof, type DpopOptions, type DpopRequest } from './dpop';

export { memoryReplayCache, type DpopOptions, type DpopReplayCache, type DpopRequest } from './dpop';
export type { DpopNonces } from '../core/dpop';

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
  /** How DPoP-bound tokens' proofs are checked (behaviour RS-2): the replay cache and server nonces. */
  readonly dpop?: DpopOptions;
}

export interface VerifiedAccessToken extends JWTPayload {
  readonly client_id: string;
  readonly scope?: string;
  readonly api_key_id?: string;
  readonly scopes: readonly string[];
  /** RFC 9449 6.1: the DPoP key of a bound token, whose proof was checked. */
  readonly cnf?: { readonly jkt?: string };
}

/**
 * A rejected token; `code` is the RFC 6750 (or RFC 9449 7.1) error for the WWW-Authenticate header,
 * `scheme` the challenge's scheme (DPoP for a DPoP-bound token), `dpopNonce` the `DPoP-Nonce` to send.
 */
export class BearerTokenError extends Error {
  constructor(
    readonly code: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce',
    message: string,
    readonly status = code === 'insufficient_scope' ? 403 : code === 'invalid_request' ? 400 : 401,
    readonly scheme: 'Bearer' | 'DPoP' = code === 'invalid_dpop_proof' || code === 'use_dpop_nonce' ? 'DPoP' : 'Bearer',
    readonly dpopNonce?: string,
  ) {
    super(message);
    this.name = 'BearerTokenError';
  }

  /**
   * The request carried no token at all: RFC 6750 3.1 says the challenge then names no error, since
   * the client may simply not have known that authentication is needed.
   */
  get noTokenPresented(): boolean {
    return this.code === 'invalid_request' && this.message === noTokenMessage;
  }
}

const noTokenMessage = 'A bearer access token is required.';

/**
 * Returns a function that verifies an `Authorization` header value or a bare token. A DPoP-bound
 * token (`cnf.jkt`) needs `request` (method, URL, `DPoP` header) and the DPoP scheme; sent as
 * Bearer it is refused (RFC 9449 7.2), as is an unbound token sent as DPoP.
 */
export function createAccessTokenVerifier(options: ResourceServerOptions) {
  const verifier = createRemoteVerifier(String(options.jwksUri));
  const required = options.requiredScopes ?? [];
  const replayCache = options.dpop?.replayCache ?? memoryReplayCache();
  return async (authorizationOrToken: string | undefined, request?: DpopRequest): Promise<VerifiedAccessToken> => {
    const value = authorizationOrToken?.trim() ?? '';
    const match = /^(Bearer|DPoP)\s+(\S+)$/i.exec(value);
    const token = match ? match[2]! : value.includes(' ') ? '' : value;
    const scheme = match?.[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    if (!token) throw new BearerTokenError('invalid_request', noTokenMessage, 401);
    let payload: JWTPayload;
    try {
      payload = await verifier.verify(token, {
        issuer: options.issuer,
        audience: options.resource,
        ...(options.clockToleranceSeconds !== undefined ? { clockToleranceSeconds: options.clockToleranceSeconds } : {}),
      });
    } catch (error) {
      const reason = error instanceof errors.JOSEError ? error.code : 'malformed';
      throw new BearerTokenError('invalid_token', `The access token was rejected (${reason}).`, 401, scheme);
    }
    const cnf = payload.cnf as { jkt?: unknown } | undefined;
    const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : undefined;
    if (jkt === undefined && scheme === 'DPoP') {
      throw new BearerTokenError('invalid_token', 'The access token is not bound to a DPoP key: send it as Bearer.', 401, 'DPoP');
    }
    if (jkt !== undefined) {
      if (scheme !== 'DPoP') {
        throw new BearerTokenError(
          'invalid_token',
          'The access token is bound to a DPoP key: send it as "DPoP <token>" with a proof.',
          401,
          'DPoP',
        );
      }
      if (!request) throw new BearerTokenError('invalid_dpop_proof', 'A DPoP proof is required with a DPoP access token.');
      const refusal = await refusedProof(token, jkt, request, options.dpop ?? {}, replayCache);
      if (refusal) throw new BearerTokenError(refusal.code, refusal.message, 401, 'DPoP', refusal.nonce);
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const missing = required.filter((s) => !scopes.includes(s));
    if (missing.length > 0)
      throw new BearerTokenError('insufficient_scope', `The access token lacks the scope ${missing.join(' ')}.`, 403, scheme);
    return { ...payload, client_id: String(payload.client_id ?? ''), scopes } as VerifiedAccessToken;
  };
}

export interface ProtectedResourceMetadataOptions {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
  /** Lists `dpop_signing_alg_values_supported` (RFC 9728 2): this resource takes DPoP-bound tokens. */
  readonly dpop?: boolean;
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
    ...(options.dpop ? { dpop_signing_alg_values_supported: [...dpopSigningAlgorithms] } : {}),
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

/**
 * RFC 6750 3 and RFC 9728 5.1: the challenge that points clients at the metadata, with the error
 * unless no token was presented at all (RFC 6750 3.1); for a DPoP-bound
 * token's refusal the DPoP scheme with its algorithms (RFC 9449 7.1). Send `error.dpopNonce`, when
 * set, as the `DPoP-Nonce` header.
 */
export function wwwAuthenticate(resource: string, error?: BearerTokenError): string {
  const parts = [`resource_metadata="${metadataUrl(resource)}"`];
  if (error?.scheme === 'DPoP') parts.unshift(dpopAlgs);
  if (error && !error.noTokenPresented) {
    parts.push(`error="${error.code}"`, `error_description="${error.message.replace(/["\\]/g, '')}"`);
  }
  return `${error?.scheme ?? 'Bearer'} ${parts.join(', ')}`;
}
