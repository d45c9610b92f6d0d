/**
 * The consent decision of POST /api/authorize/complete (behaviour AUTHZ-9): honoured only for the
 * signed-in user the consent page was shown to; the request is claimed first, so it decides exactly
 * once. An approval from a sign-in that lacks the second factor the policy now asks for is not
 * honoured yet (AUTHZ-12): the request stays, and the answer is the step-up page.
 */
import type { MfaPolicy } from './model';
import { lacksRequiredFactor } from './account/second-factor';
import type { SignedInUser } from './authorization-code';
import {
  expiredRequest,
  hasEnvironmentAccess,
  issueCode,
  noEnvironmentAccess,
  openAuthorization,
  refusal,
  unregisteredClient,
  type AuthorizationDependencies,
  type RedirectDecision,
} from './authorization-decision';
import type { PendingAuthorization } from './authorization-request';
import { AccessDeniedError } from './errors';
import type { Client, User } from './model';

export interface ConsentDependencies {
  readonly authorization: AuthorizationDependencies;
  readonly findClient: (clientId: string) => Promise<Client | undefined>;
  /** The MFA policy in force, read strongly consistently as at sign-in (behaviour SITE-2). */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
}

export interface ConsentInput {
  readonly requestId: string;
  readonly approve: boolean;
  /** The live session posting the decision, and its user as stored now; none is refused. */
  readonly session: { readonly user: User; readonly signedIn: SignedInUser } | undefined;
  /** Names the request's client on every later log line (behaviour LOG-6), once the request is claimed. */
  readonly nameClient: (clientId: string) => void;
}

export type ConsentAnswer = RedirectDecision | { readonly kind: 'step-up'; readonly redirectUri: string };

export async function decideConsent(deps: ConsentDependencies, input: ConsentInput): Promise<ConsentAnswer> {
  const { session, requestId } = input;
  if (!session) throw new AccessDeniedError('Your sign-in has ended. Return to the application and start again.', 'no session');
  if (input.approve && (await lacksRequiredFactor(session.user, session.signedIn.amr, deps.mfaPolicy))) {
    // The policy tightened while the consent page was open. The request stays unconsumed; the code
    // step continues it (and asks for consent again with the new session). A denial needs no second
    // factor: it grants nothing.
    const pending = (await openAuthorization(deps.authorization, requestId))!;
    return { kind: 'step-up', redirectUri: pending.redirectUri };
  }
  // Conditional claim: of two concurrent posts (double click, replay) only one proceeds.
  const { sessions, clock } = deps.authorization;
  const pending = await sessions.consumeAuthorizationRequest<PendingAuthorization>(requestId, Math.floor(clock.now() / 1000));
  if (!pending) throw expiredRequest();
  const { userId } = session.signedIn;
  if (!pending.userId || pending.userId !== userId) {
    // Another user's consent screen: no redirect, so the client learns nothing either.
    throw new AccessDeniedError(
      'This request was started by another sign-in.',
      `session user ${userId}, request user ${pending.userId ?? 'none'}`,
    );
  }
  if (!input.approve) return refusal(deps.authorization, pending, new AccessDeniedError('The user denied the request.'));
  input.nameClient(pending.clientId);
  const client = await deps.findClient(pending.clientId);
  if (!client) throw unregisteredClient(pending.clientId);
  // Re-checked: the grant may have been revoked while the consent page was open.
  if (!(await hasEnvironmentAccess(deps.authorization, client, userId)))
    return refusal(deps.authorization, pending, noEnvironmentAccess(userId, client));
  return issueCode(deps.authorization, pending, session.signedIn);
}
