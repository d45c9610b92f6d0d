/**
 * What the sign-in continuation (lambdas/core/sign-in/continuation.ts) reads and writes, from this
 * container. The doors that may continue an authorization take getAuthorizingSignIn
 * (lambdas/wiring/authorize.ts), which adds the authorization's stores and the client lookup: the
 * sign-in page's own door does not carry them.
 */
import type { SignInContinuationDependencies } from '../core/sign-in/continuation';
import { getContainer } from './container';
import { getUsers } from './repositories';

/**
 * `secondFactor` (lambdas/wiring/account.ts) at every door but the passkey's: getSecondFactor where
 * a code may be asked, getChallengeChecks at the code's own door.
 */
export function getSignInContinuation<S extends SignInContinuationDependencies['secondFactor']>(
  secondFactor?: S,
): SignInContinuationDependencies & { readonly secondFactor?: S } {
  const { config, log, metrics } = getContainer();
  const users = getUsers();
  return {
    ...(secondFactor ? { secondFactor } : {}),
    requireVerifiedEmail: config.requireVerifiedEmail,
    findUser: (id) => users.get(id),
    log,
    metrics,
  };
}
