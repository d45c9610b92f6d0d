/**
 * An AWS service (DynamoDB above all) that did not answer: throttled, a 5xx, a connection refused,
 * reset or timed out, or the invocation's deadline reached (adapters/aws/invocation-deadline.ts).
 * The SDK retries all but the last itself, so one that reaches our code has failed for the client's
 * whole retry budget, and whether a write it carried was applied is unknown. Classified with the
 * SDK's own rules (@smithy/core/retry), so callers need no SDK import.
 */
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';

interface SdkErrorShape extends Error {
  readonly $metadata?: object;
}

/** The SDK puts `$metadata` on every error it gives up on; what it would retry is what "unavailable" means. */
export function isServiceUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // An abort is the deadline's: we give the SDK no other signal. It may come from a back-off wait,
  // before any attempt, so it need not carry `$metadata`.
  if (error.name === 'AbortError') return true;
  if (!('$metadata' in error)) return false;
  const sdkError = error as SdkErrorShape as Parameters<typeof isTransientError>[0];
  return isThrottlingError(sdkError) || isTransientError(sdkError) || isServerError(sdkError);
}
