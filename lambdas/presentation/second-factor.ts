/**
 * The step between a correct password and a session (behaviour MFA-1, MFA-2; issue 12), shared by
 * the sign-in page (POST /api/auth/signin) and the sign-in step of an authorization (POST
 * /api/authorize): when a code is needed, no session starts and the code page is the answer.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { secondFactorNeed, startChallenge, type SecondFactorDependencies } from '../core/account/second-factor';
import { AccessDeniedError } from '../core/errors';
import type { User } from '../core/model';
import type { Container } from '../core/ports';
import { formTarget, htmlResponse, wantsHtml } from './html';
import { jsonResponse } from '../http/response';
import { codePage } from './views/account';
import { oneTimeCodeLifetimeSeconds } from '../core/account/one-time-code';
import { metricNames } from '../core/metrics';

export interface Continuation {
  /** The sign-in page's safe return_to. */
  readonly returnTo?: string;
  /** Within an authorization: the request id and its redirect URI (the page's form-action must allow it). */
  readonly requestId?: string;
  readonly redirectUri?: string;
}

/** A user who needs a code and has no address cannot sign in (behaviour MFA-1). */
export function noAddressForCode(user: User): AccessDeniedError {
  return new AccessDeniedError(
    'This account must confirm each sign-in with a code sent by email, but it has no email address. Ask an administrator.',
    `user ${user.id} needs a mailed code and has no email`,
  );
}

/** The code page when the user must enter a mailed code, else undefined (start the session). */
export async function secondFactorStep(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  container: Container,
  secondFactor: () => SecondFactorDependencies,
  user: User,
  continuation: Continuation,
): Promise<APIGatewayProxyResult | undefined> {
  const deps = secondFactor();
  const need = secondFactorNeed(user, await deps.mfaPolicy(), container.config.requireVerifiedEmail);
  if (need.kind === 'none') return undefined;
  if (need.kind === 'impossible') throw noAddressForCode(user);
  const started = await startChallenge(deps, user, need, continuation);
  container.log.info('sign-in code sent', { userId: user.id, verifiesEmail: need.verifiesEmail });
  container.metrics.count(metricNames.signInCodeSent);
  if (!wantsHtml(event)) {
    return jsonResponse(200, {
      second_factor: 'email_otp',
      challenge_id: started.challengeId,
      sent_to: started.maskedEmail,
      expires_in: oneTimeCodeLifetimeSeconds,
    });
  }
  const view = {
    challengeId: started.challengeId,
    maskedEmail: started.maskedEmail,
    ...(continuation.requestId ? { requestId: continuation.requestId } : {}),
  };
  return htmlResponse(200, codePage(view), { formTargets: [continuation.redirectUri ? formTarget(continuation.redirectUri) : undefined] });
}
