/**
 * POST /api/authorize/complete: the consent decision for a dynamically registered client,
 * or any client asked with prompt=consent (form: request_id, decision=approve|deny). Honoured only for the signed-in user the
 * request was shown to; the request is consumed first, so it decides exactly once.
 */
import type { PendingAuthorization } from '../core/authorization-request';
import {
  expiredRequest,
  hasEnvironmentAccess,
  issueCode,
  noEnvironmentAccess,
  refusal,
  unregisteredClient,
} from '../core/authorization-decision';
import { AccessDeniedError } from '../core/errors';
import { decisionResponse } from '../presentation/authorize-flow';
import { parseBody } from '../http/body';
import { consentForm } from '../http/forms';
import { httpHandler } from '../wiring/handler';
import { withErrorPages } from '../presentation/page-errors';
import { assertSameOrigin } from '../http/same-origin';
import { currentSession, lacksSecondFactor, signedInUserOf } from '../http/session';
import { stepUpResponse } from '../presentation/step-up';
import { validate } from '../http/validate';
import { getClientFinder, getSessionReaders, getSessions } from '../wiring/repositories';
import { getSite } from '../wiring/site';
import { getAuthorizationDependencies } from '../wiring/authorize';
import { labelClient } from '../http/request-context';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(consentForm, parseBody(event, ['form']));
    const current = await currentSession(event, container, getSessionReaders());
    if (!current) throw new AccessDeniedError('Your sign-in has ended. Return to the application and start again.', 'no session');
    const sessions = getSessions();
    if (form.decision === 'approve' && (await lacksSecondFactor(current, async () => (await getSite().current()).mfaPolicy))) {
      // Behaviour AUTHZ-12: the policy tightened while the consent page was open. The request stays
      // unconsumed; the code step continues it (and asks for consent again with the new session).
      // A denial needs no second factor: it grants nothing.
      const pending = await sessions.getAuthorizationRequest<PendingAuthorization>(
        form.request_id,
        Math.floor(container.clock.now() / 1000),
      );
      if (!pending) throw expiredRequest();
      return stepUpResponse(container, current.user, { hidden: { request_id: form.request_id }, redirectUri: pending.redirectUri });
    }
    const findClient = getClientFinder();
    // Conditional claim: of two concurrent posts (double click, replay) only one proceeds.
    const pending = await sessions.consumeAuthorizationRequest<PendingAuthorization>(
      form.request_id,
      Math.floor(container.clock.now() / 1000),
    );
    if (!pending) throw expiredRequest();
    const userId = current.session.userId;
    if (!pending.userId || pending.userId !== userId) {
      // Another user's consent screen: no redirect, so the client learns nothing either.
      throw new AccessDeniedError(
        'This request was started by another sign-in.',
        `session user ${userId}, request user ${pending.userId ?? 'none'}`,
      );
    }
    const flow = getAuthorizationDependencies();
    if (form.decision === 'deny')
      return decisionResponse(container, refusal(flow, pending, new AccessDeniedError('The user denied the request.')));
    labelClient(pending.clientId);
    const client = await findClient(pending.clientId);
    if (!client) throw unregisteredClient(pending.clientId);
    // Re-checked: the grant may have been revoked while the consent page was open.
    const decision = (await hasEnvironmentAccess(flow, client, userId))
      ? await issueCode(flow, pending, signedInUserOf(current.session))
      : refusal(flow, pending, noEnvironmentAccess(userId, client));
    return decisionResponse(container, decision);
  }),
);
