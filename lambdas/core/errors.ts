/**
 * One error class per OAuth error code (RFC 6749 5.2 and 4.1.2.1, RFC 7591 3.2.2,
 * RFC 8707 2, RFC 6750 3.1), serialized by a single function in lambdas/http/errors.ts.
 *
 * `description` goes on the wire; keep it readable and generic where detail would help an
 * attacker. `reason` is the real, internal cause: logged and written to the activity log,
 * never sent.
 */
export interface OAuthErrorOptions extends ErrorOptions {
  /** Extra response headers (Retry-After, WWW-Authenticate, Allow). */
  readonly headers?: Readonly<Record<string, string>>;
}

export abstract class OAuthError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
  /** Extra response headers (Retry-After, WWW-Authenticate, Allow), fixed at construction. */
  readonly headers: Readonly<Record<string, string>>;

  /** `options.cause`: the error behind this one (logged with it, never sent). */
  constructor(
    readonly description: string,
    readonly reason: string = description,
    options: OAuthErrorOptions = {},
  ) {
    super(`${description}${reason !== description ? ` (${reason})` : ''}`, options);
    this.name = new.target.name;
    this.headers = options.headers ?? {};
  }
}

export class InvalidRequestError extends OAuthError {
  readonly code = 'invalid_request';
  readonly status = 400;
}
export class InvalidClientError extends OAuthError {
  readonly code = 'invalid_client';
  readonly status = 401;
}
export class InvalidGrantError extends OAuthError {
  readonly code = 'invalid_grant';
  readonly status = 400;
}
export class UnauthorizedClientError extends OAuthError {
  readonly code = 'unauthorized_client';
  readonly status = 400;
}
export class UnsupportedGrantTypeError extends OAuthError {
  readonly code = 'unsupported_grant_type';
  readonly status = 400;
}
export class UnsupportedResponseTypeError extends OAuthError {
  readonly code = 'unsupported_response_type';
  readonly status = 400;
}
export class InvalidScopeError extends OAuthError {
  readonly code = 'invalid_scope';
  readonly status = 400;
}
/** RFC 8707 section 2: the requested resource is not acceptable. */
export class InvalidTargetError extends OAuthError {
  readonly code = 'invalid_target';
  readonly status = 400;
}
export class AccessDeniedError extends OAuthError {
  readonly code = 'access_denied';
  readonly status = 403;
}
/** OIDC Core 3.1.2.6: prompt=none, and the user would have to sign in. */
export class LoginRequiredError extends OAuthError {
  readonly code = 'login_required';
  readonly status = 400;
}
/** OIDC Core 3.1.2.6: prompt=none, and the user would have to consent. */
export class ConsentRequiredError extends OAuthError {
  readonly code = 'consent_required';
  readonly status = 400;
}
/** RFC 7009 2.2.1: the server does not revoke this kind of token (here: access tokens). */
export class UnsupportedTokenTypeError extends OAuthError {
  readonly code = 'unsupported_token_type';
  readonly status = 400;
}
/** RFC 6750 3.1: missing, expired, revoked or malformed bearer token. */
export class InvalidTokenError extends OAuthError {
  readonly code = 'invalid_token';
  readonly status = 401;
}
/** RFC 9449 7.1: a DPoP error is 400 at the token endpoint, 401 with a DPoP challenge at a protected resource. */
abstract class DpopError extends OAuthError {
  readonly status: 400 | 401;

  constructor(description: string, reason: string = description, options: OAuthErrorOptions & { readonly status?: 400 | 401 } = {}) {
    super(description, reason, options);
    this.status = options.status ?? 400;
  }
}
/** RFC 9449 5, 7.1: a DPoP proof that is malformed, wrongly signed, stale, replayed or for another request. */
export class InvalidDpopProofError extends DpopError {
  readonly code = 'invalid_dpop_proof';
}
/**
 * RFC 9449 8, 9: the proof lacks the server's current nonce; the answer carries a fresh one in
 * `DPoP-Nonce` for the client to retry with.
 */
export class UseDpopNonceError extends DpopError {
  readonly code = 'use_dpop_nonce';
}
/**
 * RFC 9470 3: the token is valid, but the sign-in behind it is weaker than what is required now
 * (behaviour MFA-11: a second factor the MFA policy asks for). Sent with a `WWW-Authenticate`
 * challenge naming the code; the client sends the user through the authorization endpoint again.
 */
export class InsufficientUserAuthenticationError extends OAuthError {
  readonly code = 'insufficient_user_authentication';
  readonly status = 401;
}
export class InsufficientScopeError extends OAuthError {
  readonly code = 'insufficient_scope';
  readonly status = 403;
}
/** RFC 7591 3.2.2 */
export class InvalidClientMetadataError extends OAuthError {
  readonly code = 'invalid_client_metadata';
  readonly status = 400;
}
/** RFC 7591 3.2.2 */
export class InvalidRedirectUriError extends OAuthError {
  readonly code = 'invalid_redirect_uri';
  readonly status = 400;
}
export class TooManyRequestsError extends OAuthError {
  readonly code = 'too_many_requests';
  readonly status = 429;
  constructor(description: string, retryAfterSeconds: number, reason?: string) {
    super(description, reason, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}
export class NotFoundError extends OAuthError {
  readonly code = 'not_found';
  readonly status = 404;
}
/**
 * 409: the request is well-formed but clashes with stored state (a duplicate email, a
 * concurrent change). OAuth defines no code for this, so the code stays `invalid_request`
 * and the status carries the distinction.
 */
export class ConflictRequestError extends OAuthError {
  readonly code = 'invalid_request';
  readonly status = 409;
}
export class MethodNotAllowedError extends OAuthError {
  readonly code = 'method_not_allowed';
  readonly status = 405;
  constructor(allowed: readonly string[]) {
    super(`This endpoint accepts ${allowed.join(', ')}.`, undefined, { headers: { Allow: allowed.join(', ') } });
  }
}
export class UnsupportedMediaTypeError extends OAuthError {
  readonly code = 'invalid_request';
  readonly status = 415;
}
export class PayloadTooLargeError extends OAuthError {
  readonly code = 'invalid_request';
  readonly status = 413;
}
export class TemporarilyUnavailableError extends OAuthError {
  readonly code = 'temporarily_unavailable';
  readonly status = 503;
}
/** Anything unexpected becomes this on the wire; the cause is only logged. */
export class ServerError extends OAuthError {
  readonly code = 'server_error';
  readonly status = 500;
  constructor(reason = 'unexpected error', options: ErrorOptions = {}) {
    super('The server could not complete the request.', reason, options);
  }
}

/**
 * Raised by the client store when a write that grants scopes meets a scope catalog changed since
 * the scopes were checked (a scope was deleted): nothing was written; check again (behaviour ADMIN-18).
 */
export class ScopeCatalogChangedError extends Error {
  constructor() {
    super('the scope catalog changed since it was checked');
    this.name = 'ScopeCatalogChangedError';
  }
}

/** Raised by adapters when a conditional write loses (a one-time value consumed twice, a duplicate key). */
export class ConflictError extends Error {
  constructor(readonly what: string) {
    super(`conflict: ${what}`);
    this.name = 'ConflictError';
  }
}
