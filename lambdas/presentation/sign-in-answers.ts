/**
 * The pages of the sign-in continuation's answers that depend on the factor (presentation/sign-in.ts
 * AnswerPages): each door names the ones its factor can get, and bundles only those.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { oneTimeCodeLifetimeSeconds } from '../core/account/one-time-code';
import { InvalidGrantError } from '../core/errors';
import { newSecret } from '../core/ids';
import { endpointPaths } from '../core/paths';
import type { Container } from '../http/container';
import type { Destination } from '../core/sign-in/continuation';
import { badCredentials } from '../http/forms';
import { jsonResponse } from '../http/response';
import { type Brand, formTarget, htmlResponse, wantsHtml } from './html';
import type { AnswerPages } from './sign-in';
import { codeExpiredPage, codePage } from './views/account';
import { signInPage } from './views/sign-in';

export const passkeyRefused = 'That passkey could not sign you in. Try again, or use your password.';

const redirectUriOf = (destination: Destination) => (destination.kind === 'authorization' ? destination.request.redirectUri : undefined);
const formTargetsOf = (destination: Destination) => {
  const redirectUri = redirectUriOf(destination);
  return [redirectUri ? formTarget(redirectUri) : undefined];
};
const requestIdOf = (destination: Destination) => (destination.kind === 'authorization' ? { requestId: destination.requestId } : {});

/**
 * The sign-in form again, with the refusal (behaviour SIGNIN-2, PASSKEY-6); the passkey button still
 * offered; `email` is shown again on a refused password form.
 */
export const formRefused =
  (email?: string): NonNullable<AnswerPages['refused']> =>
  async (event, container, answer, brand) => {
    if (answer.factor === 'code') throw new Error('the sign-in form refuses a password or a passkey, never a code');
    const error = answer.factor === 'password' ? badCredentials : passkeyRefused;
    if (!wantsHtml(event)) return jsonResponse(401, { error: 'access_denied', error_description: error });
    return refusedPage(container, answer.destination, error, email, brand);
  };

/** The form posts where the destination continues: the authorization's sign-in, else the page's. */
function refusedPage(
  container: Container,
  destination: Destination,
  error: string,
  email: string | undefined,
  brand: Brand,
): APIGatewayProxyResult {
  const passkeyNonce = newSecret(container.random);
  const authorization = destination.kind === 'authorization' ? destination : undefined;
  const client = authorization?.client;
  const view = {
    action: authorization ? endpointPaths.authorize : endpointPaths.signIn,
    hidden: authorization
      ? { request_id: authorization.requestId }
      : { return_to: destination.kind === 'page' ? destination.returnTo : undefined },
    ...(email !== undefined ? { email } : {}),
    error,
    ...(client ? { client: { name: client.name, selfRegistered: client.registrationType === 'dynamic' } } : {}),
    passkeyNonce,
  };
  return htmlResponse(401, signInPage(view), { formTargets: formTargetsOf(destination), scriptNonce: passkeyNonce, brand });
}

/** A wrong code, with its tries left, or one that is spent (behaviour MFA-4). */
export const codeRefused: NonNullable<AnswerPages['refused']> = async (event, _container, answer, brand) => {
  if (answer.factor !== 'code') throw new Error('the code page refuses a code only');
  const { wrong, destination } = answer;
  if (!wrong) {
    if (!wantsHtml(event)) throw new InvalidGrantError('This code has expired or has been used up. Sign in again.', answer.reason);
    return htmlResponse(400, codeExpiredPage(destination.kind === 'authorization'), { brand });
  }
  const error = `That code is not right. ${wrong.triesLeft} ${wrong.triesLeft === 1 ? 'try' : 'tries'} left.`;
  if (!wantsHtml(event)) return jsonResponse(400, { error: 'invalid_grant', error_description: error });
  const view = {
    challengeId: answer.challengeId,
    maskedEmail: (await wrong.maskedEmail()) ?? 'your address',
    error,
    ...requestIdOf(destination),
  };
  return htmlResponse(400, codePage(view), { formTargets: formTargetsOf(destination), brand });
};

/** The code was mailed (behaviour MFA-2): the code page, or for a JSON caller the challenge to answer. */
export const codeSent: NonNullable<AnswerPages['codeSent']> = (event, { challengeId, maskedEmail, destination }, brand) => {
  if (!wantsHtml(event)) {
    const body = { second_factor: 'email_otp', challenge_id: challengeId, sent_to: maskedEmail, expires_in: oneTimeCodeLifetimeSeconds };
    return jsonResponse(200, body);
  }
  return htmlResponse(200, codePage({ challengeId, maskedEmail, ...requestIdOf(destination) }), {
    formTargets: formTargetsOf(destination),
    brand,
  });
};
