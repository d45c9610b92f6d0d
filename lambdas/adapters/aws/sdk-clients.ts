/**
 * How every AWS SDK client of ours is built: the SDK resolves the endpoint (partitions, FIPS,
 * dual-stack, `AWS_ENDPOINT_URL_*`), signs, retries in its standard mode and corrects clock skew;
 * we set only what its defaults leave open for a Lambda function with a 10 s timeout:
 *
 * - bounds on each attempt: the SDK's request timeout defaults to none, and a timeout only warns
 *   unless `throwOnRequestTimeout` is set (a timed-out attempt is then a TimeoutError the SDK
 *   retries);
 * - the number of attempts, the SDK's retry mode being the only retry layer;
 * - keep-alive sockets closed after `idleSocketMs` unused, below DynamoDB's own idle limit (about a
 *   minute), so a socket left idle across a Lambda freeze is closed by us on thaw rather than found
 *   dead by the first call (which the SDK would retry, at the cost of an attempt);
 * - the invocation's deadline (invocation-deadline.ts) as the abort signal of every `send`, which the
 *   SDK honours on the wire and in its back-off waits;
 * - X-Ray subsegments per call when tracing is on (tracing.ts).
 *
 * One client per service per container: the wiring builds each once (lambdas/wiring).
 */
import { invocationDeadline } from './invocation-deadline';
import { traceAwsClient } from './tracing';

export interface AwsCallBounds {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Milliseconds to open a connection (TCP and TLS). */
  readonly connectionTimeout: number;
  /** Milliseconds for one attempt, from sending the request to the last byte of the reply. */
  readonly requestTimeout: number;
}

export interface AwsClientSettings {
  /** Unset: the SDK's own resolution (AWS_REGION, which Lambda sets). */
  readonly region?: string;
  /** The abort signal of the current invocation; the default reads invocation-deadline.ts. */
  readonly deadline?: () => AbortSignal | undefined;
  /** Records each call as an X-Ray subsegment (the construct's `tracing` prop). */
  readonly tracing?: boolean;
}

/** An idle keep-alive socket is closed after this long (see above). */
export const idleSocketMs = 20_000;

/** The constructor configuration shared by our clients: region, attempts, and the HTTP handler's bounds. */
export function clientConfig(bounds: AwsCallBounds, settings: AwsClientSettings = {}) {
  return {
    ...(settings.region ? { region: settings.region } : {}),
    maxAttempts: bounds.maxAttempts,
    requestHandler: {
      connectionTimeout: bounds.connectionTimeout,
      requestTimeout: bounds.requestTimeout,
      throwOnRequestTimeout: true,
      httpsAgent: { keepAlive: true, maxSockets: 50, timeout: idleSocketMs },
    },
  };
}

interface SendOptions {
  abortSignal?: AbortSignal;
}
interface SendingClient {
  send(command: never, options?: SendOptions): Promise<unknown>;
}

/**
 * Makes every `send` of `client` carry the invocation's deadline (unless the caller gave its own
 * signal) and, with tracing on, record an X-Ray subsegment. Returns the same client.
 */
export function boundToInvocation<C extends SendingClient>(client: C, settings: AwsClientSettings = {}): C {
  const deadline = settings.deadline ?? invocationDeadline;
  const send = client.send.bind(client) as (command: unknown, options?: SendOptions) => Promise<unknown>;
  let traced: Promise<void> | undefined;
  const bounded = (command: unknown, options?: SendOptions) => {
    const abortSignal = options?.abortSignal ?? deadline();
    return send(command, abortSignal ? { ...options, abortSignal } : options);
  };
  (client as unknown as { send: typeof bounded }).send = settings.tracing
    ? async (command, options) => {
        await (traced ??= traceAwsClient(client));
        return bounded(command, options);
      }
    : bounded;
  return client;
}

/** Jobs and custom resources: minutes to run, so each attempt may take longer; the deadline still bounds them all. */
export const backgroundCallBounds: AwsCallBounds = { maxAttempts: 3, connectionTimeout: 2000, requestTimeout: 10_000 };

/** A client built with `clientConfig` and bound with `boundToInvocation`, e.g. `awsClient((c) => new S3Client(c), bounds)`. */
export function awsClient<C extends SendingClient>(
  build: (config: ReturnType<typeof clientConfig>) => C,
  bounds: AwsCallBounds,
  settings: AwsClientSettings = {},
): C {
  return boundToInvocation(build(clientConfig(bounds, settings)), settings);
}
