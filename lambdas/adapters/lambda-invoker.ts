/**
 * Asynchronous Lambda invocation (`InvocationType: Event`): the forgot-password route hands its
 * mail job to its own function this way (lambdas/wiring/background.ts).
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

/**
 * Two attempts: an Event invocation is queued by Lambda, so a resend after a lost reply can run the
 * job twice (here: a second reset mail, the lesser harm than none).
 */
export const lambdaCallBounds = { maxAttempts: 2, connectionTimeout: 1000, requestTimeout: 3000 } as const;

/** Resolves once Lambda accepted the invocation (202), long before it runs. */
export function createEventInvoker(functionName: string, settings: AwsClientSettings = {}): (payload: string) => Promise<void> {
  const lambda = boundToInvocation(new LambdaClient(clientConfig(lambdaCallBounds, settings)), settings);
  return async (payload) => {
    await lambda.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(payload) }),
    );
  };
}
