/**
 * Checking a presented code against a stored one, the same way for sign-in challenges and
 * email verification: count the attempt first (atomically, in the store), and only a counted
 * attempt is compared, so N parallel guesses evaluate at most the cap (behaviour MFA-4,
 * VERIFY-4: MFA_OTP_MAX_ATTEMPTS). The comparison is an Argon2id verification of the stored hash.
 *
 * Nothing here deletes the code: a code whose attempts are all counted is used up where it
 * stands (the store refuses to count more, to read it as live or to replace it), and TTL
 * removes it. A delete would take the code away from a counted attempt still being verified,
 * so of 10 parallel posts of the right code, none would start a session (behaviour MFA-4).
 */
import { newId } from '../ids';
import type { NoticeKind } from '../notices';
import type { Clock, Hasher, Notifier, RandomSource } from '../ports';
import type { CodeAttemptStore, SendRateStore, StoredCode } from './ports';

export interface CodeCheckDependencies {
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** What mailing a code and checking it need, the same for sign-in challenges and email verification; `K` the code's mail. */
export interface MailedCodeDependencies<K extends NoticeKind = NoticeKind> extends CodeCheckDependencies {
  readonly sendRate: SendRateStore;
  readonly notifier: Notifier<K>;
  /** MFA_OTP_MAX_ATTEMPTS */
  readonly maxAttempts: number;
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
