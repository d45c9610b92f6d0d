/**
 * Where background work that failed for good ends up (behaviour OPS-4): one SQS queue per
 * deployment, read by the AsyncWorkFailed alarm. Two kinds of failure land in it:
 *
 * - an asynchronous invocation Lambda gave up on after its own retries: the scheduled jobs
 *   (key rotation, registration-counter pruning) and the self-invocations of the routes that
 *   hand work off the request path (the forgot-password mail, the password-ceiling notice of
 *   the two sign-in routes; lambdas/wiring/background.ts). Lambda sends the invocation record:
 *   the request payload (for a mail job, the address it was for; never a token or a password),
 *   the error and the attempts;
 * - an EventBridge schedule that could not deliver its event to the job's function at all;
 * - a batch of the tables' streams the statistics rollup failed on after its retries
 *   (lib/statistics-rollup.ts): Lambda sends the shard and the batch's sequence numbers, no record.
 *
 * Kept 14 days (SQS's most), encrypted at rest by SQS, readable through IAM by the account's
 * operators only (no resource policy grants a read).
 */
import { Duration } from 'aws-cdk-lib';
import type * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Lambda's retries of an asynchronous invocation that threw (it waits about 1 and then 2 minutes),
 * before the event goes to the queue. Every job here may run twice: a rotation or a pruning run
 * does only what is due, and a second reset mail carries the newest link (which ends the older
 * ones), the lesser harm than none.
 */
export const asyncRetryAttempts = 2;

/**
 * How long an event may wait (throttled, or between retries) before it goes to the queue instead
 * of running: a mail an hour late is still worth sending (the reset link lives 30 minutes from when
 * the job makes it); a daily job's run is worth more than a day's wait.
 */
export const asyncMaxEventAge = Duration.hours(1);

export class AsyncFailures extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new sqs.Queue(this, 'Queue', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // A terminal queue: no other queue of the account may name it as its dead-letter queue, so
      // nothing but this deployment's failures raises AsyncWorkFailed (Control Tower's CT.SQS.PR.1,
      // which wants allowAll or byQueue here, is acknowledged in lib/nag-acknowledgements.ts).
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.DENY_ALL },
    });
  }

  /** An asynchronously invoked function: its retries, its longest wait, and its failures to the queue. */
  watch(fn: lambda.IFunction): void {
    fn.configureAsyncInvoke({
      onFailure: new destinations.SqsDestination(this.queue),
      retryAttempts: asyncRetryAttempts,
      maxEventAge: asyncMaxEventAge,
    });
  }

  /** A schedule's target: EventBridge's delivery retries, then the undeliverable event to the queue. */
  targetOptions(): Pick<targets.LambdaFunctionProps, 'deadLetterQueue' | 'retryAttempts' | 'maxEventAge'> {
    return { deadLetterQueue: this.queue, retryAttempts: asyncRetryAttempts, maxEventAge: asyncMaxEventAge };
  }
}
