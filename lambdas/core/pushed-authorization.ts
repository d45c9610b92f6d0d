/**
 * Pushed authorization requests (RFC 9126, behaviour AUTHZ-14..AUTHZ-18): the client sends the
 * authorization request's parameters to POST /api/par, authenticated as at the token endpoint;
 * they are validated as GET /api/authorize validates them and stored for a short while under the
 * digest of a fresh `request_uri`, which the authorization endpoint then takes instead of them.
 */
import { type RequestParameters, resolveRedirectUri, validateAuthorizationRequest } from './authorization-request';
import { InvalidRequestError } from './errors';
import { newSecret } from './ids';
import { lifetimes } from './lifetimes';
import type { Client } from './model';
import type { Clock, RandomSource } from './ports';

/** RFC 9126 2.2: the URN namespace of a pushed request's reference. */
export const requestUriPrefix = 'urn:ietf:params:oauth:request_uri:';

/** A reference this server issued: the prefix and a newSecret (256 bits, base64url). */
const ourRequestUri = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;

/** What is stored: the parameters as pushed, the client's credentials left out (never stored). */
export interface PushedAuthorizationRequest {
  readonly clientId: string;
  readonly parameters: Readonly<Record<string, string>>;
}

/** The ephemeral store of pushed requests, keyed by the digest of their `request_uri`. */
export interface PushedRequestStore {
  savePushedRequest(requestUri: string, request: PushedAuthorizationRequest, expiresAtEpoch: number): Promise<void>;
  /** The request, claimed by this call; undefined when unknown, expired or claimed before (single use). */
  claimPushedRequest(requestUri: string, nowEpoch: number): Promise<PushedAuthorizationRequest | undefined>;
}

export interface PushDependencies {
  readonly pushedRequests: PushedRequestStore;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export interface PushedRequestReference {
  readonly requestUri: string;
  readonly expiresIn: number;
}

/**
 * POST /api/par once the client is authenticated (RFC 9126 2.1): refuses a `request_uri`
 * (behaviour AUTHZ-15), and a `client_id` other than the authenticated client's; validates the rest
 * exactly as the authorization endpoint would (AUTHZ-14), then stores it (AUTHZ-16).
 */
export async function pushAuthorizationRequest(
  deps: PushDependencies,
  client: Client,
  form: Readonly<Record<string, string | undefined>>,
  /** The client-authentication fields (client_secret, …): never stored. */
  credentialFields: readonly string[],
): Promise<PushedRequestReference> {
  if (form.request_uri !== undefined) {
    throw new InvalidRequestError('A pushed authorization request must not contain request_uri (RFC 9126 section 2.1).');
  }
  if (form.client_id !== undefined && form.client_id !== client.clientId) {
    throw new InvalidRequestError('The client_id parameter is not the authenticated client.', `client_id ${form.client_id}`);
  }
  // Object.fromEntries defines each name as its own property: a `__proto__` field stays a field.
  const parameters: Record<string, string> = Object.fromEntries([
    ...Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined && !credentialFields.includes(entry[0])),
    ['client_id', client.clientId],
  ]);
  const params: RequestParameters = { values: parameters, repeated: new Set() };
  validateAuthorizationRequest(client, resolveRedirectUri(client, params), params);

  const requestUri = `${requestUriPrefix}${newSecret(deps.random)}`;
  const expiresIn = lifetimes.pushedAuthorizationRequest;
  const expiresAtEpoch = Math.floor(deps.clock.now() / 1000) + expiresIn;
  await deps.pushedRequests.savePushedRequest(requestUri, { clientId: client.clientId, parameters }, expiresAtEpoch);
  return { requestUri, expiresIn };
}

const unusable = (reason: string) =>
  new InvalidRequestError('The request_uri is unknown, expired or already used: push the authorization request again.', reason);

/**
 * GET /api/authorize with `request_uri` (RFC 9126 4, behaviour AUTHZ-17): the pushed parameters,
 * claimed once, in place of the query's (other query parameters are ignored). The client must be
 * the one that pushed them, so the claim comes after it is known; a request_uri presented with
 * another client's id is used up all the same (it has leaked). Every failure here is shown as a
 * page, never redirected: nothing trusted names a redirect URI yet (RFC 6749 4.1.2.1).
 */
export async function pushedRequestParameters(
  pushedRequests: Pick<PushedRequestStore, 'claimPushedRequest'>,
  client: Client | undefined,
  query: RequestParameters,
  nowEpoch: number,
): Promise<RequestParameters> {
  if (query.repeated.has('client_id') || query.repeated.has('request_uri')) {
    throw new InvalidRequestError('The client_id and request_uri parameters must not be repeated.');
  }
  const clientId = query.values.client_id;
  if (!clientId) throw new InvalidRequestError('The client_id parameter is required with request_uri (RFC 9126 section 4).');
  if (!client) throw new InvalidRequestError('The client is unknown.', `no client ${clientId}`);
  const requestUri = query.values.request_uri ?? '';
  const pushed = ourRequestUri.test(requestUri) ? await pushedRequests.claimPushedRequest(requestUri, nowEpoch) : undefined;
  if (!pushed) throw unusable('request_uri unknown, expired or used');
  if (pushed.clientId !== client.clientId) throw unusable(`request_uri pushed by client ${pushed.clientId}`);
  return { values: pushed.parameters, repeated: new Set() };
}

/**
 * Behaviour AUTHZ-18: with the server-wide switch on, or the client's
 * `require_pushed_authorization_requests` (RFC 9126 6), a request that was not pushed is refused.
 * Checked in phase two: the client and its redirect URI are known, so the refusal is redirected.
 */
export function assertPushedWhenRequired(client: Client, pushed: boolean, serverRequires: boolean): void {
  if (pushed || !(serverRequires || client.requirePushedAuthorizationRequests === true)) return;
  throw new InvalidRequestError(
    'This authorization request must be pushed first (RFC 9126): send it to the pushed authorization request endpoint and use the request_uri it returns.',
    serverRequires ? 'PAR required by the server' : 'PAR required for the client',
  );
}
