/**
 * Sign-in sessions as the HTTP layer sees them: the cookie carries a 256-bit random id;
 * the store keeps only its digest (docs/storage-schema.md), so a table dump signs no one in.
 * A session is bound to the user's credentialVersion (behaviour RESET-12): each use reads the user
 * as stored now, so a password change ends every session at once, also one that the index the
 * change's clean-up queries (eventually consistent) did not show yet.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { MfaPolicy } from '../config/settings';
import { lacksRequiredFactor } from '../core/account/second-factor';
import type { SignedInUser } from '../core/authorization-code';
import { newSecret } from '../core/ids';
import { lifetimes } from '../core/lifetimes';
import type { Session, User } from '../core/model';
import type { Container } from './container';
import { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from './cookies';

/** The session store, as the sign-in pages use it (lambdas/adapters/dynamodb/session-store.ts). */
export interface SessionStore {
  getSession(id: string, nowEpoch: number): Promise<Session | undefined>;
  createSession(id: string, session: Session, createdAt: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
}

/** What using a session reads: the session, then its user as stored now (strongly consistent). */
export interface SessionReaders {
  readonly sessions: SessionStore;
  readonly currentUser: (userId: string) => Promise<User | undefined>;
}

export interface CurrentSession {
  readonly id: string;
  readonly session: Session;
  /** The session's user as stored now. */
  readonly user: User;
}

/** newSecret's shape; anything else is not looked up. */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

export function sessionIdOf(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, container: Container): string | undefined {
  const value = readCookie(event, sessionCookieName(container.config.baseUrl));
  return value && sessionIdPattern.test(value) ? value : undefined;
}

/**
 * The live session of the request's cookie, if any. An expired item counts as absent, and so does
 * a session whose user is gone or whose password changed since it started (behaviour RESET-12), or
 * that started before SIGN_INS_NOT_BEFORE (behaviour OPS-7).
 */
export async function currentSession(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  container: Container,
  readers: SessionReaders,
): Promise<CurrentSession | undefined> {
  const id = sessionIdOf(event, container);
  if (!id) return undefined;
  const session = await readers.sessions.getSession(id, Math.floor(container.clock.now() / 1000));
  if (!session) return undefined;
  // Behaviour OPS-7: a sign-in from before the restore's cutoff may be one revoked since: no session.
  const cutoff = container.config.signInsNotBefore;
  if (cutoff !== undefined && session.authTime < cutoff) {
    container.log.info('session refused', { reason: 'signed in before SIGN_INS_NOT_BEFORE', userId: session.userId });
    return undefined;
  }
  const user = await readers.currentUser(session.userId);
  if (!user) return undefined;
  if ((user.credentialVersion ?? 0) !== (session.credentialVersion ?? 0)) {
    container.log.info('session refused', { reason: 'password changed since the session started', userId: user.id });
    return undefined;
  }
  return { id, session, user };
}

/**
 * Behaviour MFA-9: the session's sign-in lacks a second factor that the policy in force now asks
 * of its user (a stricter policy since, or a session stored without `amr`). The caller asks for
 * the code (behaviour MFA-10) or answers login_required; it never uses the session as it is.
 */
export const lacksSecondFactor = (current: CurrentSession, mfaPolicy: () => Promise<MfaPolicy>): Promise<boolean> =>
  lacksRequiredFactor(current.user, current.session.amr, mfaPolicy);

/** The signed-in user of a session, as codes and pending requests carry it (ID token auth_time and amr; RESET-12). */
export const signedInUserOf = (session: Session): SignedInUser => ({
  userId: session.userId,
  authTime: session.authTime,
  ...(session.amr ? { amr: session.amr } : {}),
  ...(session.credentialVersion !== undefined ? { credentialVersion: session.credentialVersion } : {}),
});

/**
 * A new session after a successful sign-in. Always a new id, and the previous session of
 * this browser is deleted: an id planted before sign-in never becomes authenticated
 * (session fixation).
 */
export async function startSession(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  container: Container,
  sessions: SessionStore,
  user: Pick<User, 'id' | 'credentialVersion'>,
  amr: readonly string[] = ['pwd'],
): Promise<{ readonly session: Session; readonly setCookie: string }> {
  const previous = sessionIdOf(event, container);
  const now = container.clock.now();
  const authTime = Math.floor(now / 1000);
  const session: Session = {
    userId: user.id,
    authTime,
    amr: [...amr],
    // The password this sign-in was checked against (behaviour RESET-12).
    credentialVersion: user.credentialVersion ?? 0,
    expiresAtEpoch: authTime + lifetimes.session,
  };
  const id = newSecret(container.random);
  await Promise.all([
    sessions.createSession(id, session, new Date(now).toISOString()),
    previous ? sessions.deleteSession(previous) : undefined,
  ]);
  return { session, setCookie: sessionCookie(container.config.baseUrl, id, lifetimes.session) };
}

export async function endSession(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  container: Container,
  sessions: SessionStore,
): Promise<string> {
  const id = sessionIdOf(event, container);
  if (id) await sessions.deleteSession(id);
  return clearedSessionCookie(container.config.baseUrl);
}
