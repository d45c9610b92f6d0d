/**
 * The answers of an authorization decision (lambdas/core/authorization-decision.ts) as HTTP
 * responses: the 303 to the client's redirect URI (OAuth 2.1 4.1.2, RFC 9207), or the consent page.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type AuthorizationDecision, type RedirectDecision, refusal } from '../core/authorization-decision';
import type { AuthorizationRequest } from '../core/authorization-request';
import type { OAuthError } from '../core/errors';
import type { Container } from '../http/container';
import { redirect } from '../http/redirect';
import { formTarget, htmlResponse, type Brand } from './html';
import { consentPage } from './views/consent';

type Headers = Readonly<Record<string, string>>;

export interface DecisionResponseOptions {
  /** E.g. the Set-Cookie of a sign-in that just happened. */
  readonly headers?: Headers;
  /** The site's title and logo on the consent page (behaviour SITE-4); read only when that page is the answer. */
  readonly brand?: () => Promise<Brand>;
}

/** The 303 back to the client; apart from the consent page, so the consent decision's door does not bundle that page. */
export function redirectResponse(container: Container, decision: RedirectDecision, headers: Headers = {}): APIGatewayProxyResult {
  if (decision.kind === 'refused') {
    const { error } = decision;
    container.log.info('authorization refused', { error: error.code, reason: error.reason, clientId: decision.clientId });
  }
  return redirect(decision.location, headers);
}

export async function decisionResponse(
  container: Container,
  decision: AuthorizationDecision,
  options: DecisionResponseOptions = {},
): Promise<APIGatewayProxyResult> {
  const headers = options.headers ?? {};
  if (decision.kind !== 'consent') return redirectResponse(container, decision, headers);
  const { client, request } = decision;
  const brand = await options.brand?.();
  const page = consentPage({
    requestId: decision.requestId,
    clientName: client.name,
    selfRegistered: client.registrationType === 'dynamic',
    redirectHost: new URL(request.redirectUri).host || request.redirectUri,
    scopes: decision.scopes,
    resource: request.resource,
  });
  return htmlResponse(200, page, { headers, formTargets: [formTarget(request.redirectUri)], ...(brand ? { brand } : {}) });
}

/** An error sent back to the client's redirect URI (RFC 6749 4.1.2.1), logged as a refusal. */
export const redirectError = (
  container: Container,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'> & { readonly clientId?: string },
  error: OAuthError,
): Promise<APIGatewayProxyResult> => decisionResponse(container, refusal({ issuer: container.config.baseUrl }, request, error));
