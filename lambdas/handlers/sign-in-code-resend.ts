/**
 * POST /api/auth/otp/resend: a new code for a pending sign-in challenge (form: challenge_id,
 * request_id within an authorization). The old code stops working and the attempts start
 * over; sends are throttled per user by the service (a minute apart, ten an hour;
 * behaviour MFA-7, MFA-8).
 */
import { openAuthorization } from '../core/authorization-decision';
import { maskEmail, oneTimeCodeLifetimeSeconds } from '../core/account/one-time-code';
import { resendCode } from '../core/account/second-factor';
import { InvalidGrantError } from '../core/errors';
import { resendCodeForm } from '../http/account-forms';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { formTarget, htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { codeExpiredPage, codePage } from '../presentation/views/account';
import { getSecondFactor } from '../wiring/account';
import { getSessions } from '../wiring/repositories';
import { getBrand } from '../wiring/site';
import { metricNames } from '../core/metrics';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(resendCodeForm, parseBody(event, ['form']));
    const pending = await openAuthorization({ sessions: getSessions(), clock: container.clock }, form.request_id);
    const challenge = await resendCode(getSecondFactor(), form.challenge_id);
    if (!challenge) {
      if (!wantsHtml(event)) throw new InvalidGrantError('This sign-in has expired. Sign in again.', 'no live challenge');
      return htmlResponse(400, codeExpiredPage(pending !== undefined), { brand: await getBrand() });
    }
    container.log.info('sign-in code sent again', { userId: challenge.userId });
    container.metrics.count(metricNames.signInCodeSent);
    const maskedEmail = maskEmail(challenge.email);
    if (!wantsHtml(event))
      return jsonResponse(200, { challenge_id: form.challenge_id, sent_to: maskedEmail, expires_in: oneTimeCodeLifetimeSeconds });
    const view = {
      challengeId: form.challenge_id,
      maskedEmail,
      notice: 'We sent a new code. The previous one no longer works.',
      ...(form.request_id ? { requestId: form.request_id } : {}),
    };
    return htmlResponse(200, codePage(view), {
      formTargets: [pending ? formTarget(pending.redirectUri) : undefined],
      brand: await getBrand(),
    });
  }),
);
