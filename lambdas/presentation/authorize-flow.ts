/**
 * The "decide" step shared by GET /api/authorize (already signed in), POST /api/authorize
 * (just signed in) and POST /api/authorize/complete (consent given): check the user's
 * environment grant (behaviour ENV-1), ask for consent from dynamically registered clients, and
 * issue the code with a 303 to the registered redirect URI (OAuth 2.1 4.1.2, RFC 9207).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { newAuthorizationCode, requiredEnvironment, type SignedInUser } from '../core/authorization-code';
import type { AuthorizationRequest, InteractionRules, PendingAuthorization } from '../core/authorization-request';
import { errorRedirect, successRedirect } from '../core/authorization-response';
import { AccessDeniedError, ConsentRequiredError, InvalidRequestError, type OAuthError } from '../core/errors';
import { newSecret } from '../core/ids';
import { lifetimes } from '../core/lifetimes';
import type { Client } from '../core/model';
import type { AuthorizationCode } from '../core/model';
import type { Container, ScopeDefinition } from '../core/ports';
import { formTarget, htmlResponse, type Brand } from './html';
import { redirect } from '../http/redirect';
import { consentPage } from './views/consent';

type Headers = Readonly<Record<string, string>>;

const nowEpoch = (container: Container) => Math.floor(container.clock.now() / 1000);

/** The request id is a bearer capability for the pending request: 256 random bits, single use. */
export const newRequestId = (container: Container): string => newSecret(container.random);

export const expiredRequest = () =>
  new InvalidRequestError('This sign-in has expired or was already used. Return to the application and start again.');

export function redirectError(
  container: Container,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'> & { readonly clientId?: string },
  error: OAuthError,
  headers: Headers = {},
): APIGatewayProxyResult {
  container.log.info('authorization refused', { error: error.code, reason: error.reason, clientId: request.clientId });
  return redirect(errorRedirect(request.redirectUri, error, request.state, container.config.baseUrl), headers);
}

/** What the authorization steps read and write: pending requests, codes, grants, the scope catalog. */
export interface AuthorizeFlowDependencies {
  readonly sessions: {
    saveAuthorizationRequest(id: string, request: PendingAuthorization, expiresAtEpoch: number): Promise<void>;
    consumeAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined>;
  };
  readonly codes: { saveCode(code: string, value: AuthorizationCode): Promise<void> };
  readonly environments: { hasAccess(userId: string, environmentId: string): Promise<boolean> };
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
  /** The site's title and logo on the consent page (issue 14). */
  readonly brand?: () => Promise<Brand>;
}

export async function issueCode(
  container: Container,
  codes: AuthorizeFlowDependencies['codes'],
  request: AuthorizationRequest,
  user: SignedInUser,
  headers: Headers = {},
): Promise<APIGatewayProxyResult> {
  const { code, value } = newAuthorizationCode(request, user, container.random, nowEpoch(container));
  await codes.saveCode(code, value);
  return redirect(successRedirect(request.redirectUri, code, request.state, container.config.baseUrl), headers);
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
  container: Container,
  environments: AuthorizeFlowDependencies['environments'],
  client: Client,
  userId: string,
): Promise<boolean> {
  return environments.hasAccess(userId, requiredEnvironment(client, container.config.dcr.environmentId));
}

export const noEnvironmentAccess = (userId: string, client: Client) =>
  new AccessDeniedError('You do not have access to this application.', `user ${userId} lacks the environment of ${client.clientId}`);

export interface DecideInput {
  readonly container: Container;
  readonly deps: AuthorizeFlowDependencies;
  readonly client: Client;
  readonly request: AuthorizationRequest | PendingAuthorization;
  /** Set when the request is already stored (the sign-in step); it is consumed or bound here. */
  readonly requestId?: string;
  readonly user: SignedInUser;
  /** E.g. the Set-Cookie of a sign-in that just happened. */
  readonly headers?: Headers;
  /** False when no user action led here (a GET with a live session): prompt=none applies. */
  readonly interactive?: boolean;
}

export async function decide(input: DecideInput): Promise<APIGatewayProxyResult> {
  const { container, deps, client, request, requestId, user, headers = {}, interactive = true } = input;
  const { sessions } = deps;
  if (!(await hasEnvironmentAccess(container, deps.environments, client, user.userId))) {
    if (requestId) await sessions.consumeAuthorizationRequest(requestId, nowEpoch(container));
    // A dynamic client's redirect URI is anyone's, and the user has not approved this client:
    // no automatic redirect there (RFC 9700 4.11.2); the refusal is a page.
    if (client.registrationType === 'dynamic') throw noEnvironmentAccess(user.userId, client);
    return redirectError(container, request, noEnvironmentAccess(user.userId, client), headers);
  }
  // Dynamic clients are always asked (nobody vetted them); others when prompt=consent says so.
  if (client.registrationType === 'dynamic' || request.prompt?.consent) {
    if (!interactive && request.prompt?.none) {
      const error = new ConsentRequiredError('The user must approve this application first.', `prompt=none for client ${client.clientId}`);
      if (client.registrationType === 'dynamic') throw error;
      return redirectError(container, request, error, headers);
    }
    return askConsent(container, deps, client, request, requestId, user, headers);
  }
  // Single use: of two concurrent sign-ins on one request only one gets past this.
  if (requestId && !(await sessions.consumeAuthorizationRequest(requestId, nowEpoch(container)))) throw expiredRequest();
  return issueCode(container, deps.codes, request, user, headers);
}

async function askConsent(
  container: Container,
  deps: AuthorizeFlowDependencies,
  client: Client,
  request: AuthorizationRequest | PendingAuthorization,
  requestId: string | undefined,
  user: SignedInUser,
  headers: Headers,
): Promise<APIGatewayProxyResult> {
  const id = requestId ?? newRequestId(container);
  const expiresAtEpoch = 'expiresAtEpoch' in request ? request.expiresAtEpoch : nowEpoch(container) + lifetimes.authorizationRequest;
  // The consent post is honoured only for this user (authorize-complete checks it).
  const pending: PendingAuthorization = {
    ...request,
    userId: user.userId,
    authTime: user.authTime,
    ...(user.amr ? { amr: user.amr } : {}),
    expiresAtEpoch,
  };
  const [, catalog, brand] = await Promise.all([
    deps.sessions.saveAuthorizationRequest(id, pending, expiresAtEpoch),
    deps.scopes(),
    deps.brand?.(),
  ]);
  const url = new URL(request.redirectUri);
  const page = consentPage({
    requestId: id,
    clientName: client.name,
    selfRegistered: client.registrationType === 'dynamic',
    redirectHost: url.host || request.redirectUri,
    scopes: request.scopes.map((name) => ({ name, description: catalog.find((s) => s.name === name)?.description })),
    resource: request.resource,
  });
  return htmlResponse(200, page, { headers, formTargets: [formTarget(request.redirectUri)], ...(brand ? { brand } : {}) });
}
