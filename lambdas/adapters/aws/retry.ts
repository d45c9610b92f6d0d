/**
 * The AWS SDK's "standard" retry mode, as the locked SDK (@smithy/core retry, its 2026
 * defaults) applies it, reduced to what our calls need:
 * - retried: throttling (by error code or 429), 5xx, timeouts and network failures
 *   (refused, reset: a reply lost after the request left); never another 4xx such as
 *   ConditionalCheckFailedException or a ValidationException, which would fail the same way;
 * - full-jitter exponential backoff: random() × min(base × 2^retry, 20 s), base 50 ms,
 *   1 s after throttling;
 * - a retry budget per client (500 tokens; a retry costs 14, 5 after throttling; a success
 *   gives back its last retry's cost, or 1), so a failing service is not hammered by every
 *   caller at once;
 * - at most `maxAttempts` attempts (the SDK's default for DynamoDB: 4); the error that reaches
 *   the caller is the last attempt's, with `$metadata.attempts`.
 */
const throttlingNames = new Set([
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'TransactionInProgressException',
]);
const transientNames = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalServerError', 'ServiceUnavailable']);
const networkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

export type RetryKind = 'throttling' | 'transient' | undefined;

interface ErrorShape {
  readonly name?: string;
  readonly code?: string;
  readonly $metadata?: { httpStatusCode?: number; attempts?: number };
}

/** Whether (and how) an attempt's error is worth another attempt. */
export function retryKind(error: unknown): RetryKind {
  if (error === null || typeof error !== 'object') return undefined;
  const { name = '', code = '', $metadata } = error as ErrorShape;
  const status = $metadata?.httpStatusCode ?? 0;
  if (throttlingNames.has(name) || status === 429) return 'throttling';
  if (transientNames.has(name) || networkCodes.has(code) || status >= 500) return 'transient';
  return undefined;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  /** Milliseconds; tests shorten it. */
  readonly baseDelay?: number;
  readonly throttlingBaseDelay?: number;
}

const maximumDelay = 20_000;
const initialTokens = 500;
const costOf = { transient: 14, throttling: 5 } as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Retrier {
  private tokens = initialTokens;

  constructor(private readonly policy: RetryPolicy) {}

  async run<T>(attempt: () => Promise<T>): Promise<T> {
    let lastCost = 0;
    for (let attempts = 1; ; attempts++) {
      try {
        const result = await attempt();
        this.tokens = Math.min(initialTokens, this.tokens + (lastCost || 1));
        return result;
      } catch (error) {
        const kind = retryKind(error);
        const metadata = (error as ErrorShape).$metadata;
        if (metadata) metadata.attempts = attempts;
        if (!kind || attempts >= this.policy.maxAttempts || this.tokens < costOf[kind]) throw error;
        this.tokens -= costOf[kind];
        lastCost = costOf[kind];
        const base = kind === 'throttling' ? (this.policy.throttlingBaseDelay ?? 1000) : (this.policy.baseDelay ?? 50);
        await pause(Math.floor(Math.random() * Math.min(base * 2 ** (attempts - 1), maximumDelay)));
      }
    }
  }
}
