/**
 * The authorization request (OAuth 2.1 section 4.1.1, RFC 7636, RFC 8707), validated in
 * the two phases RFC 6749 4.1.2.1 requires: first the client and its redirect URI, whose
 * failures must never redirect (the URI is not trusted yet); then everything else, whose
 * failures are sent to that redirect URI.
 */
import { InvalidRequestError, InvalidTargetError, UnauthorizedClientError, UnsupportedResponseTypeError } from './errors';
import type { Client } from './model';
import { challengePattern } from './pkce';
import { redirectUriMatches } from './redirect-uri';
import { parseResource } from './resource';
import { narrowScopes, parseScope } from './scope';

/** OIDC Core 3.1.2.1 `prompt` and `max_age`: when the user must (or must not) see a page. */
export interface InteractionRules {
  /** prompt=none: answer without any page, or with login_required / consent_required. */
  readonly none?: boolean;
  /** prompt=login (or select_account): sign in again even with a live session. */
  readonly login?: boolean;
  /** prompt=consent: ask, even for a client that is not normally asked. */
  readonly consent?: boolean;
  /** max_age: a session older than this many seconds signs in again. */
  readonly maxAgeSeconds?: number;
}

export interface AuthorizationRequest {
  readonly clientId: string;
  /** The registered URI the response goes to; also what the token request must repeat. */
  readonly redirectUri: string;
  /** The request named redirect_uri (rather than relying on the single registered one). */
  readonly redirectUriNamed?: boolean;
  readonly prompt?: InteractionRules;
  readonly scopes: readonly string[];
  readonly resource?: string;
  readonly state?: string;
  readonly nonce?: string;
  readonly codeChallenge: string;
  /** RFC 9449 10: the thumbprint of the DPoP key the code must be redeemed with (behaviour CODE-5). */
  readonly dpopJkt?: string;
}

/** Stored between the steps (ephemeral table, lifetimes.authorizationRequest). */
export interface PendingAuthorization extends AuthorizationRequest {
  /** Set once the user is known; the consent step is honoured only for this user. */
  readonly userId?: string;
  readonly authTime?: number;
  readonly amr?: readonly string[];
  readonly expiresAtEpoch: number;
}

/** Query parameters, with the names that appeared more than once. */
export interface RequestParameters {
  readonly values: Readonly<Record<string, string | undefined>>;
  readonly repeated: ReadonlySet<string>;
}

/** state and nonce are opaque to us but stored and echoed: bound their size. */
const maxOpaqueLength = 1024;

/**
 * Phase one: the client must exist and use the code flow, and the redirect URI must be one
 * it registered, by exact string comparison (OAuth 2.1 4.1.1, RFC 9700 4.1.3) but for the port
 * of a loopback IP literal (behaviour AUTHZ-13, RFC 8252 7.3). It may be
 * omitted only when exactly one is registered. Errors here are shown, never redirected.
 */
export function resolveRedirectUri(client: Client | undefined, params: RequestParameters): string {
  const { values, repeated } = params;
  if (repeated.has('client_id') || repeated.has('redirect_uri')) {
    throw new InvalidRequestError('The client_id and redirect_uri parameters must not be repeated.');
  }
  if (!values.client_id) throw new InvalidRequestError('The client_id parameter is required.');
  if (!client) throw new InvalidRequestError('The client is unknown.', `no client ${values.client_id}`);
  if (!client.grantTypes.includes('authorization_code')) {
    throw new UnauthorizedClientError('This client may not use the authorization code flow.');
  }
  const given = values.redirect_uri;
  if (given === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0]!;
    throw new InvalidRequestError('The redirect_uri parameter is required.');
  }
  if (!client.redirectUris.some((registered) => redirectUriMatches(registered, given))) {
    throw new InvalidRequestError('The redirect_uri is not registered for this client.', `unregistered redirect_uri ${given}`);
  }
  return given;
}

/** The state to echo on an error redirect: only a well-formed one (RFC 6749 4.1.2.1). */
export function echoableState(params: RequestParameters): string | undefined {
  const state = params.values.state;
  return state && !params.repeated.has('state') && state.length <= maxOpaqueLength ? state : undefined;
}

const known = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'max_age', 'dpop_jkt'];
/** An RFC 7638 SHA-256 thumbprint, base64url: 43 characters (RFC 9449 10). */
const thumbprintPattern = /^[A-Za-z0-9_-]{43}$/;

/** OIDC Core 3.1.2.1: `prompt` (space-separated; `none` stands alone) and `max_age` (seconds). */
function interactionRules(values: RequestParameters['values']): InteractionRules | undefined {
  const prompts = (values.prompt ?? '').split(' ').filter(Boolean);
  const unknown = prompts.find((p) => !['none', 'login', 'consent', 'select_account'].includes(p));
  if (unknown)
    throw new InvalidRequestError(`The prompt value "${unknown.slice(0, 40)}" is not supported (none, login, consent, select_account).`);
  if (prompts.includes('none') && prompts.length > 1) throw new InvalidRequestError('prompt=none cannot be combined with other values.');
  let maxAgeSeconds: number | undefined;
  if (values.max_age !== undefined) {
    if (!/^[0-9]{1,9}$/.test(values.max_age)) throw new InvalidRequestError('max_age must be a whole number of seconds.');
    maxAgeSeconds = Number(values.max_age);
  }
  const rules: InteractionRules = {
    ...(prompts.includes('none') ? { none: true } : {}),
    // One account per browser session here: choosing an account means signing in again.
    ...(prompts.includes('login') || prompts.includes('select_account') ? { login: true } : {}),
    ...(prompts.includes('consent') ? { consent: true } : {}),
    ...(maxAgeSeconds !== undefined ? { maxAgeSeconds } : {}),
  };
  return Object.keys(rules).length > 0 ? rules : undefined;
}

/** Phase two: everything else. Each error is redirected with its RFC 6749 4.1.2.1 code. */
export function validateAuthorizationRequest(client: Client, redirectUri: string, params: RequestParameters): AuthorizationRequest {
  const { values, repeated } = params;
  // RFC 8707 2 allows several resources; a token here has one audience, so only one is accepted.
  if (repeated.has('resource')) throw new InvalidTargetError('Only one resource may be requested.');
  // RFC 6749 3.1: parameters must not be included more than once.
  const twice = known.find((name) => repeated.has(name));
  if (twice) throw new InvalidRequestError(`The ${twice} parameter is repeated.`);

  if (!values.response_type) throw new InvalidRequestError('The response_type parameter is required.');
  if (values.response_type !== 'code') {
    throw new UnsupportedResponseTypeError('Only response_type=code is supported.', `response_type ${values.response_type}`);
  }
  // OAuth 2.1 4.1.1 and RFC 7636 4.4.1: PKCE is required, and only S256 is accepted.
  if (!values.code_challenge) throw new InvalidRequestError('PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (values.code_challenge_method !== 'S256') {
    throw new InvalidRequestError(
      'code_challenge_method must be S256.',
      `code_challenge_method ${values.code_challenge_method ?? 'missing'}`,
    );
  }
  if (!challengePattern.test(values.code_challenge)) {
    throw new InvalidRequestError('code_challenge must be a base64url SHA-256 value (43 characters).');
  }
  const scopes = narrowScopes(parseScope(values.scope), client.scopes, 'granted to the client');
  const resource = parseResource(values.resource);
  for (const name of ['state', 'nonce'] as const) {
    const value = values[name];
    if (value !== undefined && value.length > maxOpaqueLength) {
      throw new InvalidRequestError(`The ${name} parameter is longer than ${maxOpaqueLength} characters.`);
    }
  }
  const prompt = interactionRules(values);
  if (values.dpop_jkt !== undefined && !thumbprintPattern.test(values.dpop_jkt)) {
    throw new InvalidRequestError('dpop_jkt must be the base64url SHA-256 JWK thumbprint of the DPoP key (43 characters).');
  }
  return {
    clientId: client.clientId,
    redirectUri,
    ...(values.redirect_uri !== undefined ? { redirectUriNamed: true } : {}),
    ...(prompt ? { prompt } : {}),
    scopes,
    ...(resource !== undefined ? { resource } : {}),
    ...(values.state ? { state: values.state } : {}),
    ...(values.nonce ? { nonce: values.nonce } : {}),
    codeChallenge: values.code_challenge,
    ...(values.dpop_jkt ? { dpopJkt: values.dpop_jkt } : {}),
  };
}
