/**
 * Reuse of a one-time value (RFC 6749 4.1.2 and 10.5 for codes, OAuth 2.1 4.3.1 / RFC 9700
 * 4.14.2 for refresh tokens): the second use fails and the family the first use created is
 * revoked, so whatever a thief or a replay obtained stops working.
 *
 * A lost race can be reported before the winner commits (DynamoDB cancels a transaction
 * that conflicts with one in flight), so the loser re-reads a few times to learn the
 * winner's family rather than missing the revocation.
 */
import type { GrantDependencies } from './grant';
import { retry, tryAgain } from '../retry';

/** Waits for `find` to yield a value, re-reading with a short backoff; undefined if it never does. */
export async function settle<T>(find: () => Promise<T | undefined | 'gone'>, pause?: GrantDependencies['pause']): Promise<T | undefined> {
  const found = await retry(
    async () => {
      const value = await find();
      return value === undefined ? tryAgain : value;
    },
    { attempts: 5, delayMs: (attempt) => 25 * attempt, ...(pause ? { pause } : {}) },
  );
  return found === 'gone' ? undefined : found;
}

/** The code's family, once its winning redemption has committed. */
export async function familyOfRedeemedCode(code: string, known: string | undefined, deps: GrantDependencies, nowEpoch: number) {
  if (known) return known;
  return settle(async () => {
    const current = await deps.store.getCode(code, nowEpoch);
    return current ? current.familyId : 'gone';
  }, deps.pause);
}
