/**
 * The sign-in continuation (continuation.ts) of the doors that may continue a stored authorization:
 * the password of an authorization, the mailed code, a passkey and the step-up. After the session
 * starts, the authorization the sign-in was for is decided (consent, or the redirect with its code).
 * Apart from continuation.ts so that the sign-in page's own door, which never resumes one, does
 * not bundle deciding an authorization.
 */
import { decideAuthorization, unregisteredClient, type AuthorizationDependencies } from '../authorization-decision';
import type { Client } from '../model';
import {
  refused,
  returnTo,
  runSteps,
  signedIn,
  startSession,
  type Destination,
  type Factor,
  type SignInAnswer,
  type SignInBrowser,
  type SignInContinuationDependencies,
  type Step,
} from './continuation';
import { needsCode, type CodeAskingDependencies } from './needs-code';

/** What continuing a stored authorization needs: deciding it, and its client when not looked up before. */
export interface ResumeDependencies {
  readonly authorization: AuthorizationDependencies;
  readonly findClient: (clientId: string) => Promise<Client | undefined>;
}

export interface AuthorizingSignInDependencies extends SignInContinuationDependencies {
  readonly resume: ResumeDependencies;
}

/** On with the authorization the sign-in was for (its client is looked up now if not before). */
export const resumeAuthorization: Step<AuthorizingSignInDependencies> = async ({ deps, destination, signedIn }) => {
  if (destination.kind !== 'authorization') return undefined;
  const client = destination.client ?? (await deps.resume.findClient(destination.request.clientId));
  if (!client) throw unregisteredClient(destination.request.clientId);
  const { request, requestId } = destination;
  const decision = await decideAuthorization(deps.resume.authorization, { client, request, requestId, user: signedIn! });
  return { kind: 'resume-authorization', decision };
};

/** The steps, in order; the first that answers decides. */
export const signInSteps: readonly Step<AuthorizingSignInDependencies & CodeAskingDependencies>[] = [
  refused,
  needsCode,
  startSession,
  resumeAuthorization,
  returnTo,
  signedIn,
];

/** A password or a step-up, within an authorization or not. */
export const continueAuthorizingSignIn = (
  deps: AuthorizingSignInDependencies & CodeAskingDependencies,
  browser: SignInBrowser,
  factor: Extract<Factor, { readonly kind: 'password' | 'session' }>,
  destination: Destination,
): Promise<SignInAnswer> => runSteps(signInSteps, deps, browser, factor, destination);
