/**
 * The sign-in page's own door (POST /api/auth/signin), which never continues an authorization
 * (resume.ts continues one): its steps in order, the first that answers decides.
 */
import {
  type Factor,
  type PageDestination,
  type PageSignInAnswer,
  refused,
  returnTo,
  runSteps,
  type SignInBrowser,
  signedIn,
  startSession,
  type Step,
} from './continuation';
import { type CodeAskingDependencies, needsCode } from './needs-code';

/** The steps of a sign-in bound for a page, in order; the first that answers decides. */
export const pageSignInSteps: readonly Step<CodeAskingDependencies>[] = [refused, needsCode, startSession, returnTo, signedIn];

/** The sign-in page's own door, which never continues an authorization (resume.ts continues one). */
export const continueSignIn = (
  deps: CodeAskingDependencies,
  browser: SignInBrowser,
  factor: Factor,
  destination: PageDestination,
): Promise<PageSignInAnswer> => runSteps(pageSignInSteps, deps, browser, factor, destination) as Promise<PageSignInAnswer>;
