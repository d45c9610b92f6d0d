/**
 * Errors shaped as the AWS SDK's were, so code written against the SDK (and
 * lambdas/adapters/aws-errors.ts) reads them unchanged: `name` is the service's error code
 * (`ConditionalCheckFailedException`, `TransactionCanceledException`, ...), the reply's other
 * fields are copied onto the error (`CancellationReasons`, a conditional write's `Item`), and
 * `$metadata.httpStatusCode` / `$metadata.attempts` say what happened on the wire.
 */
export interface AwsMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts: number;
}

export class AwsServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: AwsMetadata;
  [field: string]: unknown;

  constructor(name: string, message: string, status: number, fields: Record<string, unknown> = {}, requestId?: string) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$fault = status >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: status, ...(requestId ? { requestId } : {}), attempts: 1 };
  }
}

/** A request that got no (complete) reply in time; the SDK's name for it, which callers already test. */
export class AwsTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  readonly $metadata: AwsMetadata = { attempts: 1 };
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/** A network failure (refused, reset, DNS): Node's error with `$metadata`, as the SDK passed it on. */
export function networkError(error: Error): Error & { $metadata: AwsMetadata } {
  return Object.assign(error, { $metadata: { attempts: 1 } });
}

/**
 * The error of a JSON-protocol reply (DynamoDB, Secrets Manager, Lambda): its code from
 * `__type` (`com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException` names
 * ConditionalCheckFailedException) or the `x-amzn-errortype` header (`Code:http://...`).
 */
export function jsonServiceError(status: number, body: string, headers: Record<string, string | string[] | undefined>): AwsServiceError {
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
  } catch {
    // A proxy's HTML page or an empty body: the status alone tells what happened.
  }
  const header = headers['x-amzn-errortype'];
  const typed = (typeof fields.__type === 'string' ? fields.__type : typeof header === 'string' ? header : '') || '';
  const name = typed.split(':')[0]!.split('#').pop() || (status >= 500 ? 'InternalServerError' : `Http${status}`);
  const { __type, message, Message, ...rest } = fields;
  const text = typeof message === 'string' ? message : typeof Message === 'string' ? Message : name;
  const requestId = headers['x-amzn-requestid'];
  return new AwsServiceError(name, text, status, rest, typeof requestId === 'string' ? requestId : undefined);
}

/** The error of a query-protocol (XML) reply, as SES v1 sends: `<Error><Code>..</Code><Message>..</Message></Error>`. */
export function xmlServiceError(status: number, body: string): AwsServiceError {
  const field = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(body)?.[1];
  const name = field('Code') ?? (status >= 500 ? 'InternalServerError' : `Http${status}`);
  return new AwsServiceError(name, field('Message') ?? name, status, {}, field('RequestId'));
}
