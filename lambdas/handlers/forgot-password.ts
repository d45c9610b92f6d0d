/**
 * POST /forgot-password (behaviour RESET-1; form: email). One answer, the same page,
 * status and headers, whether or not an account has that address (behaviour RESET-1; OWASP Forgot
 * Password Cheat Sheet), and no timing a client can use: the request only validates, counts
 * the address's sends and hands the address to a background job (lambdas/wiring/background.ts),
 * which looks it up, issues the link and mails it after the response has gone. Throttled per
 * address by the service (a minute apart, five an hour): the same 429 for any address
 * (behaviour RESET-2).
 */
import type { Context } from 'aws-lambda';
import { sendResetLinkTo } from '../core/account/password-reset';
import { passwordResetRate } from '../core/account/send-rate';
import { TooManyRequestsError } from '../core/errors';
import { forgotPasswordForm } from '../http/account-forms';
import { parseBody } from '../http/body';
import type { LambdaHandler } from '../http/handler';
import { httpHandler } from '../wiring/handler';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { resetLinkSentPage } from '../presentation/views/account';
import { getPasswordReset, getSendRate, resetLinkSendSubject } from '../wiring/account';
import { getContainer } from '../wiring/container';
import { dispatchInBackground, isBackgroundInvocation, runWithinDeadline, type BackgroundJob } from '../wiring/background';

/** The background half: never tells the requester anything, so it only logs. */
export async function runPasswordResetJob(job: BackgroundJob): Promise<void> {
  const outcome = await sendResetLinkTo(getPasswordReset(), job.email);
  getContainer().log.info('password reset request handled', { outcome });
}

const endpoint = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const { email } = validate(forgotPasswordForm, parseBody(event, ['form']));
    const nowEpoch = Math.floor(container.clock.now() / 1000);
    const rate = await getSendRate().take(resetLinkSendSubject(email), passwordResetRate, nowEpoch);
    if (!rate.allowed) {
      throw new TooManyRequestsError(
        'A link was asked for this address moments ago. Check your mail, or try again later.',
        rate.retryAfterSeconds,
        'reset rate per address',
      );
    }
    await dispatchInBackground({ kind: 'password-reset-mail', email }, runPasswordResetJob);
    return wantsHtml(event)
      ? htmlResponse(200, resetLinkSentPage())
      : jsonResponse(200, { message: 'If an account exists for that address, a link to reset its password was sent.' });
  }),
);

export const handler = (async (event: unknown, context: Context) =>
  isBackgroundInvocation(event)
    ? runWithinDeadline(context?.getRemainingTimeInMillis?.(), () => runPasswordResetJob(event.backgroundJob))
    : endpoint(event as never, context)) as LambdaHandler;
