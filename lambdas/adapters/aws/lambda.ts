/**
 * Lambda Invoke, asynchronous (`InvocationType: Event`, REST-JSON protocol), through our
 * signed client: the forgot-password route hands its mail job to its own function this way
 * (lambdas/wiring/background.ts), and @aws-sdk/client-lambda would be most of its cold start.
 */
import { jsonServiceError } from './errors';
import { Retrier } from './retry';
import type { AwsCredentials } from './sigv4';
import { AwsTransport } from './transport';

export function lambdaEventInvoker(region: string, credentials: () => AwsCredentials, maxAttempts: number) {
  const transport = new AwsTransport({
    service: 'lambda',
    region,
    endpoint: `https://lambda.${region}.amazonaws.com`,
    credentials,
    connectTimeout: 1000,
    requestTimeout: 3000,
  });
  const retrier = new Retrier({ maxAttempts });
  return {
    /** Queues one invocation of `functionName` with `payload`; resolves once Lambda accepted it (202). */
    invokeEvent(functionName: string, payload: string): Promise<void> {
      const request = {
        method: 'POST' as const,
        // Function names and ARNs hold [A-Za-z0-9-_:.]; ':' is encoded once here and once more for signing (sigv4.ts).
        path: `/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
        headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
        body: payload,
      };
      return retrier.run(async () => {
        const reply = await transport.send(request);
        if (reply.status !== 202) throw jsonServiceError(reply.status, reply.body, reply.headers);
      });
    },
  };
}
