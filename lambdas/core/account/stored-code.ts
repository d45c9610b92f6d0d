/**
 * Checking a presented code against a stored one, the same way for sign-in challenges and
 * email verification: count the attempt first (atomically, in the store), and only a counted
 * attempt is compared, so N parallel guesses evaluate at most the cap (behaviour MFA-4,
 * VERIFY-4: MFA_OTP_MAX_ATTEMPTS). The comparison is an Argon2id verification of the stored hash.
 *
 * Nothing here deletes the code: a code whose attempts are all counted is used up where it
 * stands (the store refuses to count more, to read it as live or to replace it), and TTL
 * removes it. A delete would take the code away from a counted attempt still being verified,
 * so of 10 parallel posts of the right code, none would start a session (issue 26).
 */
import { newId } from '../ids';
import type { Clock, Hasher, RandomSource } from '../ports';
import type { AttemptCount } from './one-time-code';

export interface StoredCode {
  readonly codeHash: string;
  readonly maxAttempts: number;
  readonly expiresAtEpoch: number;
}

export interface CodeAttemptStore<T extends StoredCode> {
  /**
   * Counts one attempt, identified by `attemptToken` (a resend of this very update counts
   * once), unless the cap is reached or the item is absent, expired or used; returns the item
   * as it stood after counting, so the code compared is the one the attempt was counted against.
   * Once every attempt is counted the code is used up: never counted again, never live.
   */
  countAttempt(id: string, attemptToken: string, nowEpoch: number): Promise<AttemptCount & { readonly item?: T }>;
  delete(id: string): Promise<void>;
}

export interface CodeCheckDependencies {
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export type CodeCheck<T> =
  | { readonly kind: 'match'; readonly item: T }
  | { readonly kind: 'wrong'; readonly triesLeft: number }
  /** Absent, expired, used, or out of attempts: the user must start again. */
  | { readonly kind: 'expired'; readonly reason: string };

export async function checkStoredCode<T extends StoredCode>(
  deps: CodeCheckDependencies,
  store: CodeAttemptStore<T>,
  id: string,
  code: string,
): Promise<CodeCheck<T>> {
  const nowEpoch = Math.floor(deps.clock.now() / 1000);
  const counted = await store.countAttempt(id, newId('att_', deps.random), nowEpoch);
  if (counted.kind === 'absent') return { kind: 'expired', reason: 'no live code' };
  if (counted.kind === 'exhausted') return { kind: 'expired', reason: 'attempt cap reached' };
  const item = counted.item!;
  if (await deps.hasher.verify(item.codeHash, code)) return { kind: 'match', item };
  const triesLeft = item.maxAttempts - counted.used;
  if (triesLeft <= 0) return { kind: 'expired', reason: 'last attempt wrong' };
  return { kind: 'wrong', triesLeft };
}
