/** What the sign-in continuation (lambdas/core/sign-in/continuation.ts) reads and writes, from this container. */
import type { SecondFactorDependencies } from '../core/account/second-factor';
import type { SignInContinuationDependencies } from '../core/sign-in/continuation';
import { getAuthorizationDependencies } from './authorize';
import { getContainer } from './container';
import { getClientFinder, getUsers } from './repositories';

/** `secondFactor` (lambdas/wiring/account.ts) at every door but the passkey's, which never asks for a code. */
export function getSignInContinuation(secondFactor?: SecondFactorDependencies): SignInContinuationDependencies {
  const { config, log, metrics } = getContainer();
  const users = getUsers();
  return {
    ...(secondFactor ? { secondFactor } : {}),
    requireVerifiedEmail: config.requireVerifiedEmail,
    authorization: getAuthorizationDependencies(),
    findClient: getClientFinder(),
    findUser: (id) => users.get(id),
    log,
    metrics,
  };
}
