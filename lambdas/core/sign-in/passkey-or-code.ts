/**
 * The continuation (continuation.ts) of the passkey's and the mailed code's doors: neither asks for
 * a code, since user verification made a passkey multi-factor already (behaviour PASSKEY-3) and the
 * code is the second factor (MFA-4); their refusals are theirs alone. Apart so that the password
 * doors do not bundle these refusals, nor these doors starting a challenge (and the mailer).
 */
import { maskEmail } from '../account/one-time-code';
import { metricNames } from '../metrics';
import {
  returnTo,
  runSteps,
  signedIn,
  startSession,
  type Destination,
  type Factor,
  type SignInAnswer,
  type SignInBrowser,
  type Step,
} from './continuation';
import { resumeAuthorization, type AuthorizingSignInDependencies } from './resume';

/** Behaviour PASSKEY-6: every refused assertion is one answer; the log line and count say why. */
const passkeyRefused: Step = async ({ deps, factor, destination }) => {
  if (factor.kind !== 'passkey' || factor.outcome.kind !== 'refused') return undefined;
  deps.log.info('passkey sign-in refused', { reason: factor.outcome.reason });
  deps.metrics.count(metricNames.signInFailed, { method: 'passkey' });
  return { kind: 'refused', factor: 'passkey', destination };
};

/** Behaviour MFA-4: a wrong code, with its tries left and the address read again for the page, or a spent one. */
const codeRefused: Step = async ({ deps, factor, destination }) => {
  if (factor.kind !== 'code' || factor.check.kind === 'match') return undefined;
  const { check, challengeId } = factor;
  if (check.kind === 'wrong') {
    deps.log.info('sign-in code refused', { reason: 'wrong code', triesLeft: check.triesLeft });
    deps.metrics.count(metricNames.signInCodeFailed, { reason: check.kind });
    const maskedEmail = async () => {
      if (!deps.secondFactor) throw new Error('this sign-in door was wired without the second factor');
      const { challenges, clock } = deps.secondFactor;
      const challenge = await challenges.get(challengeId, Math.floor(clock.now() / 1000));
      return challenge && maskEmail(challenge.email);
    };
    const wrong = { triesLeft: check.triesLeft, maskedEmail };
    return { kind: 'refused', factor: 'code', destination, challengeId, wrong, reason: 'wrong code' };
  }
  deps.log.info('sign-in code refused', { reason: check.reason });
  deps.metrics.count(metricNames.signInCodeFailed, { reason: check.kind });
  return { kind: 'refused', factor: 'code', destination, challengeId, reason: check.reason };
};

/** The steps, in order; the first that answers decides. */
export const passkeyOrCodeSteps: readonly Step<AuthorizingSignInDependencies>[] = [
  passkeyRefused,
  codeRefused,
  startSession,
  resumeAuthorization,
  returnTo,
  signedIn,
];

/** A passkey or the mailed code, within an authorization or not. */
export const continuePasskeyOrCodeSignIn = (
  deps: AuthorizingSignInDependencies,
  browser: SignInBrowser,
  factor: Extract<Factor, { readonly kind: 'passkey' | 'code' }>,
  destination: Destination,
): Promise<SignInAnswer> => runSteps(passkeyOrCodeSteps, deps, browser, factor, destination);
