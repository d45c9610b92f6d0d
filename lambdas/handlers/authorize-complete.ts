/**
 * POST /api/authorize/complete: the consent decision for a dynamically registered client,
 * or any client asked with prompt=consent (form: request_id, decision=approve|deny; behaviour
 * AUTHZ-9, lambdas/core/authorization-consent.ts).
 */
import { decideConsent } from '../core/authorization-consent';
import { parseBody } from '../http/body';
import { consentForm } from '../http/forms';
import { labelClient } from '../http/request-context';
import { assertSameOrigin } from '../http/same-origin';
import { currentSession, signedInUserOf } from '../http/session';
import { validate } from '../http/validate';
import { redirectResponse } from '../presentation/authorize-flow';
import { withErrorPages } from '../presentation/page-errors';
import { stepUpResponse } from '../presentation/step-up';
import { getInteractionDependencies } from '../wiring/authorize';
import { httpHandler } from '../wiring/handler';
import { getSessionReaders } from '../wiring/repositories';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(consentForm, parseBody(event, ['form']));
    const current = await currentSession(event, container, getSessionReaders());
    const session = current && { user: current.user, signedIn: signedInUserOf(current.session) };
    const input = { requestId: form.request_id, approve: form.decision === 'approve', session, nameClient: labelClient };
    const answer = await decideConsent(getInteractionDependencies(), input);
    if (answer.kind !== 'step-up') return redirectResponse(container, answer);
    return stepUpResponse(container, current!.user, { hidden: { request_id: form.request_id }, redirectUri: answer.redirectUri });
  }),
);
