/**
 * The one way this code base waits and tries again: re-reading until a racing write
 * commits, resending what DynamoDB left unprocessed, repeating an optimistic update, waiting
 * for a local process to come up. A step returns its result, or `tryAgain` to be called
 * once more after the policy's delay; an error it throws ends the attempts at once.
 */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const tryAgain: unique symbol = Symbol('tryAgain');

export interface RetryPolicy {
  /** Calls of the step at most, the first included. */
  readonly attempts: number;
  /** The wait before call number `attempt` (1 for the second call, 2 for the third, ...). */
  readonly delayMs: (attempt: number) => number;
  /** Injectable so tests need not wait. */
  readonly pause?: (ms: number) => Promise<void>;
}

/**
 * The step's first result that is not `tryAgain`, or undefined when the attempts ran out, so a
 * step should answer something other than undefined when it succeeds (`true` will do).
 */
export async function retry<T>(step: (attempt: number) => Promise<T | typeof tryAgain>, policy: RetryPolicy): Promise<T | undefined> {
  const wait = policy.pause ?? pause;
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    if (attempt > 0) await wait(policy.delayMs(attempt));
    const result = await step(attempt);
    if (result !== tryAgain) return result;
  }
  return undefined;
}

/** Exponential backoff with jitter for contended writes: about `baseMs`·2^attempt, randomised. */
export const backoff = (baseMs: number) => (attempt: number) => baseMs * 2 ** attempt * (0.5 + Math.random());
