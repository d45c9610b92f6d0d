/**
 * The invocation's deadline, as an abort signal every AWS call of that invocation carries
 * (sdk-clients.ts). A Lambda function is stopped at its timeout with no answer at all; a call to a
 * stalled dependency that the SDK keeps retrying must give up before that, with time left for the
 * handler to answer 503 `temporarily_unavailable` with Retry-After (README "When the database has
 * trouble"). Kept per invocation in AsyncLocalStorage, because the local server runs several
 * requests at once in one process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';

/**
 * What the handler keeps for itself after the deadline: the error path (serialize, log one line,
 * return) takes a few milliseconds; the rest is slack for a slow garbage collection or a cold
 * container's first log write.
 */
export const deadlineMarginMs = 1000;

const current = new AsyncLocalStorage<AbortSignal>();

/**
 * Each AWS call in flight holds one listener on the signal and drops it when it settles, so the
 * count is the calls one invocation sends at once (the activity read queries its 16 shards
 * together), not a leak; past Node's default of 10 every such invocation logged a leak warning.
 */
const callsInFlightAtOnce = 64;

/**
 * Runs one invocation under a deadline `remainingMs - deadlineMarginMs` from now (Lambda's
 * `context.getRemainingTimeInMillis()`); no remaining time known, no deadline.
 */
export function runWithinDeadline<T>(remainingMs: number | undefined, run: () => T): T {
  if (remainingMs === undefined || !Number.isFinite(remainingMs)) return run();
  const deadline = AbortSignal.timeout(Math.max(0, Math.floor(remainingMs - deadlineMarginMs)));
  setMaxListeners(callsInFlightAtOnce, deadline);
  return current.run(deadline, run);
}

/** The current invocation's signal; none outside an invocation (container start-up, local scripts). */
export function invocationDeadline(): AbortSignal | undefined {
  return current.getStore();
}

/** A Lambda handler (a job, a custom resource) whose AWS calls all end before its timeout. */
export function withinDeadline<E, R>(
  handler: (event: E) => Promise<R>,
): (event?: E, context?: { getRemainingTimeInMillis?: () => number }) => Promise<R> {
  return (event, context) => runWithinDeadline(context?.getRemainingTimeInMillis?.(), () => handler(event as E));
}
