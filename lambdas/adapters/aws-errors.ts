/**
 * An AWS service (DynamoDB above all) that did not answer: throttled, a 5xx, a connection
 * refused, reset or timed out. These are the errors our AWS client retries itself
 * (lambdas/adapters/aws/retry.ts, as the AWS SDK's standard mode does), so one that reaches
 * our code has failed for the client's whole retry budget. Whether a write it
 * carried was applied is unknown. Told apart by shape (the services' error names, `$metadata`
 * and Node's error codes), so callers need no SDK import.
 */
const throttlingNames = new Set([
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
]);
const transientNames = new Set(['InternalServerError', 'ServiceUnavailable', 'TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const networkCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

interface SdkShaped {
  readonly name?: string;
  readonly code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

export function isServiceUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || !('$metadata' in error)) return false;
  const { name = '', code = '', $metadata } = error as SdkShaped;
  const status = $metadata?.httpStatusCode ?? 0;
  return throttlingNames.has(name) || transientNames.has(name) || networkCodes.has(code) || status >= 500 || status === 429;
}
