/** What deciding an authorization (lambdas/core/authorization-decision.ts) reads and writes, from this container. */
import type { SignInContinuationDependencies } from '../core/sign-in/continuation';
import type { ConsentDependencies } from '../core/authorization-consent';
import type { AuthorizationDependencies } from '../core/authorization-decision';
import type { AuthorizingSignInDependencies } from '../core/sign-in/resume';
import { getContainer } from './container';
import { getClientFinder, getEnvironments, getSessions, getTokenStore } from './repositories';
import { getSignInContinuation } from './sign-in';
import { getSite } from './site';
import { getStorage } from './storage';

export const getAuthorizationDependencies = (): AuthorizationDependencies => {
  const { config, clock, random } = getContainer();
  return {
    sessions: getSessions(),
    codes: getTokenStore(),
    environments: getEnvironments(),
    scopes: getStorage().scopes,
    clock,
    random,
    issuer: config.baseUrl,
    dcrEnvironmentId: config.dcr.environmentId,
  };
};

/** The sign-in continuation of a door that may continue an authorization (lambdas/wiring/sign-in.ts). */
export const getAuthorizingSignIn = <S extends SignInContinuationDependencies['secondFactor']>(
  secondFactor?: S,
): AuthorizingSignInDependencies & { readonly secondFactor?: S } => ({
  ...getSignInContinuation(secondFactor),
  resume: { authorization: getAuthorizationDependencies(), findClient: getClientFinder() },
});

/**
 * Starting an authorization and the consent decision (lambdas/core/authorization-start.ts,
 * authorization-consent.ts); the MFA policy read strongly consistently, as at sign-in (behaviour
 * SITE-2): a tightened policy counts at the very next authorization.
 */
export const getInteractionDependencies = (): ConsentDependencies => ({
  authorization: getAuthorizationDependencies(),
  findClient: getClientFinder(),
  mfaPolicy: async () => (await getSite().current()).mfaPolicy,
});
