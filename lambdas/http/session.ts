/**
 * Sign-in sessions as the HTTP layer sees them: the cookie carries a 256-bit random id;
 * the store keeps only its digest (docs/storage-schema.md), so a table dump signs no one in.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { newSecret } from '../core/ids';
import { lifetimes } from '../core/lifetimes';
import type { Session } from '../core/model';
import type { Container } from '../core/ports';
import { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from './cookies';

/** The session store, as the sign-in pages use it (lambdas/adapters/dynamodb/session-store.ts). */
export interface SessionStore {
  getSession(id: string, nowEpoch: number): Promise<Session | undefined>;
  createSession(id: string, session: Session, createdAt: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
}

export interface CurrentSession {
  readonly id: string;
  readonly session: Session;
}

/** newSecret's shape; anything else is not looked up. */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

export function sessionIdOf(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, container: Container): string | undefined {
  const value = readCookie(event, sessionCookieName(container.config.baseUrl));
  return value && sessionIdPattern.test(value) ? value : undefined;
}

/** The live session of the request's cookie, if any (an expired item counts as absent). */
export async function currentSession(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  container: Container,
  sessions: SessionStore,
): Promise<CurrentSession | undefined> {
  const id = sessionIdOf(event, container);
  if (!id) return undefined;
  const session = await sessions.getSession(id, Math.floor(container.clock.now() / 1000));
  return session ? { id, session } : undefined;
}

/**
 * A new session after a successful sign-in. Always a new id, and the previous session of
 * this browser is deleted: an id planted before sign-in never becomes authenticated
 * (session fixation).
 */
export async function startSession(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  container: Container,
  sessions: SessionStore,
  userId: string,
  amr: readonly string[] = ['pwd'],
): Promise<{ readonly session: Session; readonly setCookie: string }> {
  const previous = sessionIdOf(event, container);
  const now = container.clock.now();
  const authTime = Math.floor(now / 1000);
  const session: Session = { userId, authTime, amr: [...amr], expiresAtEpoch: authTime + lifetimes.session };
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
