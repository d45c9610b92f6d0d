/**
 * The continuation's step that asks for the mailed second factor (continuation.ts). Apart so that
 * the passkey's door, whose factor is already multi-factor, does not bundle starting a challenge.
 */
import { noAddressForCode, secondFactorNeed, startChallenge, type SecondFactorDependencies } from '../account/second-factor';
import { metricNames } from '../metrics';
import type { SignInContinuationDependencies, Step } from './continuation';

/** The doors whose factor may need a mailed code: a password, or a step-up's session. */
export interface CodeAskingDependencies extends SignInContinuationDependencies {
  readonly secondFactor?: SecondFactorDependencies;
}

function secondFactorOf(deps: CodeAskingDependencies): SecondFactorDependencies {
  if (!deps.secondFactor) throw new Error('this sign-in door was wired without the second factor');
  return deps.secondFactor;
}

/** Behaviour MFA-1, MFA-2, MFA-10: a password or a session the policy asks more of gets a mailed code, and no session yet. */
export const needsCode: Step<CodeAskingDependencies> = async ({ deps, factor, destination }) => {
  if (factor.kind !== 'password' && factor.kind !== 'session') return undefined;
  const user = factor.user!;
  const secondFactor = secondFactorOf(deps);
  const need = secondFactorNeed(user, await secondFactor.mfaPolicy(), deps.requireVerifiedEmail);
  if (need.kind === 'none') return undefined;
  if (need.kind === 'impossible') throw noAddressForCode(user);
  const continuation = destination.kind === 'authorization' ? { requestId: destination.requestId } : { returnTo: destination.returnTo };
  const started = await startChallenge(secondFactor, user, need, continuation);
  deps.log.info('sign-in code sent', { userId: user.id, verifiesEmail: need.verifiesEmail });
  deps.metrics.count(metricNames.signInCodeSent);
  return { kind: 'needs-code', ...started, destination };
};
