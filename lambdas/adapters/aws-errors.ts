/**
 * An AWS service (DynamoDB above all) that did not answer: throttled, a 5xx, a connection
 * refused, reset or timed out. These are the errors our AWS client retries itself
 * (lambdas/adapters/aws/retry.ts, as the AWS SDK's standard mode does), so one that reaches
 * our code has failed for the client's whole retry budget. Whether a write it
 * carried was applied is unknown. Told apart by shape (the services' error names, `$metadata`
 * and Node's error codes), so callers need no SDK import.
 */
import { retryKind } from './aws/retry';

/** Errors of our AWS client carry `$metadata`; what it would retry is what "unavailable" means. */
export function isServiceUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || !('$metadata' in error)) return false;
  return retryKind(error) !== undefined;
}
