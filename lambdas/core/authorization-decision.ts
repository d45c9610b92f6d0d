/**
 * Deciding an authorization for a signed-in user, shared by GET /api/authorize (already signed in),
 * every sign-in that resumes one, and POST /api/authorize/complete (consent given): check the
 * user's environment grant (behaviour ENV-1), ask for consent where it is due, else issue the code
 * (OAuth 2.1 4.1.2, RFC 9207). The answer is a plain decision; lambdas/presentation/authorize-flow.ts
 * turns it into the redirect or the consent page.
 */
import { newAuthorizationCode, requiredEnvironment, type SignedInUser } from './authorization-code';
import type { AuthorizationRequest, InteractionRules, PendingAuthorization } from './authorization-request';
import { errorRedirect, successRedirect } from './authorization-response';
import { AccessDeniedError, ConsentRequiredError, InvalidRequestError, type OAuthError } from './errors';
import { newSecret } from './ids';
import { lifetimes } from './lifetimes';
import type { AuthorizationCode, Client } from './model';
import type { Clock, RandomSource, ScopeDefinition } from './ports';

/** What the authorization steps read and write: pending requests, codes, grants, the scope catalog. */
export interface AuthorizationDependencies {
  readonly sessions: {
    getAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined>;
    saveAuthorizationRequest(id: string, request: PendingAuthorization, expiresAtEpoch: number): Promise<void>;
    consumeAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined>;
  };
  readonly codes: { saveCode(code: string, value: AuthorizationCode): Promise<void> };
  readonly environments: { hasAccess(userId: string, environmentId: string): Promise<boolean> };
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** The issuer: the `iss` of every authorization response (RFC 9207 2). */
  readonly issuer: string;
  /** The environment a dynamically registered client belongs to (behaviour ENV-1). */
  readonly dcrEnvironmentId: string | undefined;
}

/** Where the browser goes next, or what it is shown. */
export type AuthorizationDecision =
  /** A 303 to the client's redirect URI carrying the code. */
  | { readonly kind: 'issued'; readonly location: string }
  /** A 303 to the client's redirect URI carrying the error (logged as a refusal). */
  | { readonly kind: 'refused'; readonly location: string; readonly error: OAuthError; readonly clientId?: string }
  /** The consent page of the stored request `requestId`. */
  | {
      readonly kind: 'consent';
      readonly requestId: string;
      readonly client: Client;
      readonly request: AuthorizationRequest;
      readonly scopes: readonly { readonly name: string; readonly description?: string }[];
    };

/** The answers that send the browser back to the client: all a decision taken after the consent page can be. */
export type RedirectDecision = Exclude<AuthorizationDecision, { readonly kind: 'consent' }>;

const epoch = (clock: Clock) => Math.floor(clock.now() / 1000);

/** The request id is a bearer capability for the pending request: 256 random bits, single use. */
export const newRequestId = (random: RandomSource): string => newSecret(random);

export const expiredRequest = () =>
  new InvalidRequestError('This sign-in has expired or was already used. Return to the application and start again.');

export const unregisteredClient = (clientId: string) =>
  new InvalidRequestError('The application is no longer registered.', `client ${clientId} deleted`);

/**
 * The stored authorization a form names (its request_id), or undefined when it names none; throws
 * when that request is gone (expired, used), before anything is spent on it.
 */
export async function openAuthorization(
  deps: Pick<AuthorizationDependencies, 'sessions' | 'clock'>,
  requestId: string | undefined,
): Promise<PendingAuthorization | undefined> {
  if (!requestId) return undefined;
  const pending = await deps.sessions.getAuthorizationRequest<PendingAuthorization>(requestId, epoch(deps.clock));
  if (!pending) throw expiredRequest();
  return pending;
}

/** An error sent back to the client's redirect URI (RFC 6749 4.1.2.1). */
export function refusal(
  deps: Pick<AuthorizationDependencies, 'issuer'>,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'> & { readonly clientId?: string },
  error: OAuthError,
): RedirectDecision {
  const location = errorRedirect(request.redirectUri, error, request.state, deps.issuer);
  return { kind: 'refused', location, error, ...(request.clientId !== undefined ? { clientId: request.clientId } : {}) };
}

export async function issueCode(
  deps: Pick<AuthorizationDependencies, 'codes' | 'clock' | 'random' | 'issuer'>,
  request: AuthorizationRequest,
  user: SignedInUser,
): Promise<RedirectDecision> {
  const { code, value } = newAuthorizationCode(request, user, deps.random, epoch(deps.clock));
  await deps.codes.saveCode(code, value);
  return { kind: 'issued', location: successRedirect(request.redirectUri, code, request.state, deps.issuer) };
}

/**
 * OIDC Core 3.1.2.1: prompt=login (or select_account) and a max_age the session has
 * outlived both mean a fresh sign-in, even with a live session. The sign-in that follows
 * starts a new session, so this holds once and never loops.
 */
export function mustSignInAgain(prompt: InteractionRules | undefined, authTime: number, nowEpoch: number): boolean {
  if (!prompt) return false;
  if (prompt.login) return true;
  if (prompt.maxAgeSeconds === undefined) return false;
  // OIDC Core 3.1.2.1: max_age=0 is prompt=login, even for a sign-in this very second.
  return prompt.maxAgeSeconds === 0 || nowEpoch - authTime > prompt.maxAgeSeconds;
}

/** Behaviour ENV-1: without a grant of the client's environment the authorization is rejected. */
export async function hasEnvironmentAccess(
  deps: Pick<AuthorizationDependencies, 'environments' | 'dcrEnvironmentId'>,
  client: Client,
  userId: string,
): Promise<boolean> {
  return deps.environments.hasAccess(userId, requiredEnvironment(client, deps.dcrEnvironmentId));
}

export const noEnvironmentAccess = (userId: string, client: Client) =>
  new AccessDeniedError('You do not have access to this application.', `user ${userId} lacks the environment of ${client.clientId}`);

export interface DecideInput {
  readonly client: Client;
  readonly request: AuthorizationRequest | PendingAuthorization;
  /** Set when the request is already stored (the sign-in step); it is consumed or bound here. */
  readonly requestId?: string;
  readonly user: SignedInUser;
  /** False when no user action led here (a GET with a live session): prompt=none applies. */
  readonly interactive?: boolean;
}

/** Throws the errors that must be a page (a dynamic client's redirect URI is not trusted yet). */
export async function decideAuthorization(deps: AuthorizationDependencies, input: DecideInput): Promise<AuthorizationDecision> {
  const { client, request, requestId, user, interactive = true } = input;
  if (!(await hasEnvironmentAccess(deps, client, user.userId))) {
    if (requestId) await deps.sessions.consumeAuthorizationRequest(requestId, epoch(deps.clock));
    // A dynamic client's redirect URI is anyone's, and the user has not approved this client:
    // no automatic redirect there (RFC 9700 4.11.2); the refusal is a page.
    if (client.registrationType === 'dynamic') throw noEnvironmentAccess(user.userId, client);
    return refusal(deps, request, noEnvironmentAccess(user.userId, client));
  }
  // Dynamic clients are always asked (nobody vetted them); others when prompt=consent says so.
  if (client.registrationType === 'dynamic' || request.prompt?.consent) {
    if (!interactive && request.prompt?.none) {
      const error = new ConsentRequiredError('The user must approve this application first.', `prompt=none for client ${client.clientId}`);
      if (client.registrationType === 'dynamic') throw error;
      return refusal(deps, request, error);
    }
    return askConsent(deps, client, request, requestId, user);
  }
  // Single use: of two concurrent sign-ins on one request only one gets past this.
  if (requestId && !(await deps.sessions.consumeAuthorizationRequest(requestId, epoch(deps.clock)))) throw expiredRequest();
  return issueCode(deps, request, user);
}

async function askConsent(
  deps: AuthorizationDependencies,
  client: Client,
  request: AuthorizationRequest | PendingAuthorization,
  requestId: string | undefined,
  user: SignedInUser,
): Promise<AuthorizationDecision> {
  const id = requestId ?? newRequestId(deps.random);
  const expiresAtEpoch = 'expiresAtEpoch' in request ? request.expiresAtEpoch : epoch(deps.clock) + lifetimes.authorizationRequest;
  // The consent post is honoured only for this user (authorize-complete checks it).
  const pending: PendingAuthorization = {
    ...request,
    userId: user.userId,
    authTime: user.authTime,
    ...(user.amr ? { amr: user.amr } : {}),
    expiresAtEpoch,
  };
  const [, catalog] = await Promise.all([deps.sessions.saveAuthorizationRequest(id, pending, expiresAtEpoch), deps.scopes()]);
  const scopes = request.scopes.map((name) => ({ name, description: catalog.find((s) => s.name === name)?.description }));
  return { kind: 'consent', requestId: id, client, request, scopes };
}
