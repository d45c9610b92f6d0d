/**
 * Asking a signed-in user for the second factor their sign-in lacked (behaviour MFA-10):
 * the page with the "Email me a code" button (lambdas/presentation/views/step-up.ts), shared by the
 * authorization endpoint (behaviour AUTHZ-12) and the dashboard (behaviour DASH-1).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { stepUpAddress } from '../core/account/second-factor';
import { newSecret } from '../core/ids';
import type { User } from '../core/model';
import type { Container } from '../http/container';
import { formTarget, htmlResponse, type Brand } from './html';
import { stepUpPage } from './views/step-up';

export interface StepUpPageOptions {
  /** The authorization's request_id, or the page to come back to. */
  readonly hidden: Readonly<Record<string, string | undefined>>;
  readonly clientName?: string;
  /** Within an authorization: the passkey sign-in may redirect there, so the page's form-action allows it. */
  readonly redirectUri?: string;
  readonly statusCode?: number;
  readonly brand?: Brand;
}

export function stepUpResponse(container: Container, user: User, options: StepUpPageOptions): APIGatewayProxyResult {
  const maskedEmail = stepUpAddress(user);
  const nonce = newSecret(container.random);
  const view = { maskedEmail, hidden: options.hidden, clientName: options.clientName, passkeyNonce: nonce };
  return htmlResponse(options.statusCode ?? 200, stepUpPage(view), {
    scriptNonce: nonce,
    formTargets: [options.redirectUri ? formTarget(options.redirectUri) : undefined],
    ...(options.brand ? { brand: options.brand } : {}),
  });
}
