/**
 * What follows a sign-in factor, the same at every door: the password form, the password of an
 * authorization, the mailed code (behaviour MFA-4..MFA-6), a passkey (PASSKEY-3..PASSKEY-6) and the
 * step-up of a live session (MFA-10). Named steps, in the manner of node-oidc-provider's
 * interaction policy: each looks at what the factor established and where the sign-in is going,
 * and may answer; the first answer stands.
 *
 *   refused → needs-code → (the session starts) → resume-authorization → return-to → signed-in
 *
 * Each door runs the steps it can need: the resume step is in resume.ts, with the steps of the doors
 * that may continue an authorization, the mailed code's in needs-code.ts, and the passkey's and the
 * code's doors have theirs in passkey-or-code.ts, so the sign-in page's own door does not bundle
 * deciding an authorization, nor the passkey's door starting a challenge.
 * The answer is plain data; lambdas/presentation/sign-in.ts makes it a response.
 */
import type { SignedInUser } from '../authorization-code';
import type { AuthorizationDecision } from '../authorization-decision';
import type { PendingAuthorization } from '../authorization-request';
import { AccessDeniedError } from '../errors';
import { metricNames } from '../metrics';
import type { Client, User } from '../model';
import type { Logger, Metrics } from '../ports';
import { passkeyAmr } from '../account/passkeys';
import { passwordAmr, passwordAndCodeAmr, type SecondFactorDependencies } from '../account/second-factor';
import type { CodeCheck } from '../account/stored-code';
import type { SignInChallenge } from '../account/ports';

/** Where the sign-in goes once it is complete. */
export type Destination =
  /** On with a stored authorization request; its client when already looked up. */
  | { readonly kind: 'authorization'; readonly requestId: string; readonly request: PendingAuthorization; readonly client?: Client }
  /** The sign-in page's own flow: to `returnTo` (a safe same-origin path), else the signed-in page. */
  | PageDestination;

export interface PageDestination {
  readonly kind: 'page';
  readonly returnTo?: string;
}

/** What the factor established. */
export type Factor =
  /** A password: its user, or undefined for a wrong password or an unknown address (one answer). */
  | { readonly kind: 'password'; readonly user: User | undefined }
  /** A mailed code checked against its challenge (completeChallenge). */
  | {
      readonly kind: 'code';
      readonly challengeId: string;
      readonly check: CodeCheck<SignInChallenge> | { readonly kind: 'mismatch'; readonly reason: string };
    }
  /** A passkey assertion (finishSignIn). */
  | {
      readonly kind: 'passkey';
      readonly outcome: { readonly kind: 'signed-in'; readonly user: User } | { readonly kind: 'refused'; readonly reason: string };
    }
  /** A live session, asked for the second factor its sign-in lacks (step-up): no new session unless a code is needed. */
  | ({ readonly kind: 'session' } & LiveSession);

export type SignInAnswer =
  | { readonly kind: 'refused'; readonly factor: 'password' | 'passkey'; readonly destination: Destination }
  /** A wrong code, with tries left; the page names the address again (read only if shown). */
  | {
      readonly kind: 'refused';
      readonly factor: 'code';
      readonly destination: Destination;
      readonly challengeId: string;
      readonly wrong?: { readonly triesLeft: number; readonly maskedEmail: () => Promise<string | undefined> };
      readonly reason: string;
    }
  | { readonly kind: 'needs-code'; readonly challengeId: string; readonly maskedEmail: string; readonly destination: Destination }
  | { readonly kind: 'resume-authorization'; readonly decision: AuthorizationDecision }
  | { readonly kind: 'return-to'; readonly path: string }
  /** `user` as stored, when it could be read. */
  | { readonly kind: 'signed-in'; readonly userId: string; readonly user: User | undefined };

/** What a sign-in bound for a page answers: never an authorization to resume. */
export type PageSignInAnswer = Exclude<SignInAnswer, { readonly kind: 'resume-authorization' }>;

export interface SignInContinuationDependencies {
  /**
   * The challenges, read again for the address a wrong code's page names; absent at a door whose
   * factor is already multi-factor (a passkey). The doors that ask for a code hold all of
   * SecondFactorDependencies (needs-code.ts CodeAskingDependencies).
   */
  readonly secondFactor?: Pick<SecondFactorDependencies, 'challenges' | 'clock'>;
  /** REQUIRE_VERIFIED_EMAIL */
  readonly requireVerifiedEmail: boolean;
  readonly findUser: (userId: string) => Promise<User | undefined>;
  readonly log: Logger;
  readonly metrics: Metrics;
}

/** What the browser's side of a completed sign-in needs: the HTTP layer sets the cookies. */
export interface SignInBrowser {
  /** A new session (the browser's previous one ends: session fixation); the user as codes carry it. */
  startSession(user: Pick<User, 'id' | 'credentialVersion'>, amr: readonly string[]): Promise<SignedInUser>;
  /** The browser's device cookie, renewed for this user (behaviour PWFAIL-3). */
  renewDevice(userId: string): Promise<void>;
}

/** A live session and its user, as a step-up starts from. */
export interface LiveSession {
  readonly user: User;
  readonly signedIn: SignedInUser;
}

/**
 * Behaviour MFA-10: the session a step-up continues. Undefined sends the browser to sign in again
 * (signed out, expired, or the password changed meanwhile: RESET-12); within an authorization
 * that is an error, as is a request shown to another sign-in (AUTHZ-9).
 */
export function sessionToStepUp(session: LiveSession | undefined, destination: Destination): LiveSession | undefined {
  const request = destination.kind === 'authorization' ? destination.request : undefined;
  if (!session) {
    if (request) throw new AccessDeniedError('Your sign-in has ended. Return to the application and start again.', 'no session');
    return undefined;
  }
  if (request?.userId && request.userId !== session.user.id) {
    throw new AccessDeniedError(
      'This request was started by another sign-in.',
      `session user ${session.user.id}, request user ${request.userId}`,
    );
  }
  return session;
}

/** Who the factor signed in, once it did not refuse. */
interface Established {
  readonly userId: string;
  readonly credentialVersion?: number;
  /** The user as the factor read them (a code's challenge carries only the id). */
  readonly user?: User;
  /** RFC 8176 methods of the new session; none for a step-up, which keeps its session. */
  readonly amr?: readonly string[];
  /** The page the sign-in began on, as a code's challenge remembers it. */
  readonly returnTo?: string;
}

const signedInAs = (user: User, amr: readonly string[]): Established => ({
  userId: user.id,
  credentialVersion: user.credentialVersion,
  user,
  amr,
});

function establishedBy(factor: Factor): Established | undefined {
  if (factor.kind === 'password') return factor.user && signedInAs(factor.user, passwordAmr);
  if (factor.kind === 'passkey') return factor.outcome.kind === 'signed-in' ? signedInAs(factor.outcome.user, passkeyAmr) : undefined;
  if (factor.kind === 'session') return { userId: factor.user.id, user: factor.user };
  if (factor.check.kind !== 'match') return undefined;
  const { userId, credentialVersion, returnTo } = factor.check.item;
  return { userId, credentialVersion, amr: passwordAndCodeAmr, ...(returnTo ? { returnTo } : {}) };
}

/** What the steps see and pass on; `D` the door's dependencies (resume.ts adds the authorization's). */
export interface Progress<D extends SignInContinuationDependencies = SignInContinuationDependencies> {
  readonly deps: D;
  readonly factor: Factor;
  readonly established: Established | undefined;
  readonly destination: Destination;
  /** Set by the session step. */
  signedIn?: SignedInUser;
}

export type Step<D extends SignInContinuationDependencies = SignInContinuationDependencies> = (
  progress: Progress<D>,
  browser: SignInBrowser,
) => Promise<SignInAnswer | undefined>;

/**
 * Behaviour SIGNIN-2: a wrong password or an unknown address, one answer; the log line and count say
 * so. A passkey's and a code's refusals are their doors' own steps (passkey-or-code.ts).
 */
export const refused: Step = async ({ deps, factor, established, destination }) => {
  if (established) return undefined;
  if (factor.kind !== 'password') throw new Error(`this sign-in door does not refuse a ${factor.kind}`);
  const clientId = destination.kind === 'authorization' && destination.client ? { clientId: destination.client.clientId } : {};
  deps.log.info('sign-in refused', { reason: 'unknown email or wrong password', ...clientId });
  deps.metrics.count(metricNames.signInFailed, { method: 'password' });
  return { kind: 'refused', factor: 'password', destination };
};

/** The factor is enough: a new session (amr per RFC 8176) and a renewed device cookie; a step-up keeps its session. */
export const startSession: Step = async (progress, browser) => {
  const { factor, deps } = progress;
  const established = progress.established!;
  if (factor.kind === 'session') {
    progress.signedIn = factor.signedIn;
    return undefined;
  }
  const user = { id: established.userId, credentialVersion: established.credentialVersion };
  progress.signedIn = await browser.startSession(user, established.amr!);
  if (factor.kind === 'passkey') deps.log.info('signed in with a passkey', { userId: user.id });
  await browser.renewDevice(user.id);
  return undefined;
};

/** Behaviour SIGNIN-6: back to the page the sign-in began on, a same-origin path only. */
export const returnTo: Step = async ({ established, destination }) => {
  const path = established?.returnTo ?? (destination.kind === 'page' ? destination.returnTo : undefined);
  return path ? { kind: 'return-to', path } : undefined;
};

/** Who is signed in now; a code's user is read again (the challenge holds only the id). */
export const signedIn: Step = async ({ deps, established }) => {
  const { userId, user } = established!;
  return { kind: 'signed-in', userId, user: user ?? (await deps.findUser(userId)) };
};

/** Runs `stepsInOrder` until one answers. */
export async function runSteps<D extends SignInContinuationDependencies>(
  stepsInOrder: readonly Step<D>[],
  deps: D,
  browser: SignInBrowser,
  factor: Factor,
  destination: Destination,
): Promise<SignInAnswer> {
  const progress: Progress<D> = { deps, factor, established: establishedBy(factor), destination };
  for (const step of stepsInOrder) {
    const answer = await step(progress, browser);
    if (answer) return answer;
  }
  throw new Error('the signed-in step always answers');
}
