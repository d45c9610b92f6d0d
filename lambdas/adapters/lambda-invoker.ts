/**
 * Asynchronous Lambda invocation (`InvocationType: Event`): the forgot-password route hands its
 * mail job to its own function this way, and the sign-in routes their rare notice of a tripped
 * password ceiling (lambdas/wiring/background.ts).
 */
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

/**
 * Two attempts: an Event invocation is queued by Lambda, so a resend after a lost reply can run the
 * job twice (here: a second mail, the lesser harm than none).
 */
export const lambdaCallBounds = { maxAttempts: 2, connectionTimeout: 1000, requestTimeout: 3000 } as const;

/**
 * Resolves once Lambda accepted the invocation (202), long before it runs. The Lambda client is
 * imported on the first invocation, not with the module: the sign-in functions invoke themselves
 * at most once per address and 15 minutes (behaviour PWFAIL-5), so their every start should not
 * pay for it (README "Cold start").
 */
export function createEventInvoker(functionName: string, settings: AwsClientSettings = {}): (payload: string) => Promise<void> {
  let loaded: Promise<{ lambda: Pick<LambdaClient, 'send'>; module: typeof import('./aws/lambda-invoke') }> | undefined;
  const load = () =>
    (loaded ??= import('./aws/lambda-invoke').then((module) => ({
      lambda: boundToInvocation(new module.LambdaClient(clientConfig(lambdaCallBounds, settings)), settings),
      module,
    })));
  return async (payload) => {
    const { lambda, module } = await load();
    await lambda.send(
      new module.InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(payload) }),
    );
  };
}
