/**
 * Scheduled signing-key rotation: a function run daily by EventBridge that advances
 * the rotation state machine (lambdas/adapters/signing/rotation.ts) by whatever is due.
 *
 * Timeline of one rotation with the defaults (rotation every 30 days, 5-minute JWKS TTL):
 *   day 30  the next key is generated and published in jwks.json beside the current one
 *           (CloudFront path invalidated); it signs nothing yet.
 *   day 31  it becomes `currentKid` (the 20-minute publication lead is long passed: the
 *           daily schedule makes the real lead a day, which also covers resource servers
 *           that cache the JWKS for up to a day).
 *   day 32  the previous key leaves jwks.json (due 70 minutes after it stopped signing:
 *           the functions' 5-minute key cache + 1-hour token lifetime + margin).
 * Each run does at most what is due, so a missed or repeated run is harmless.
 */
import { Duration } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { RotationEnvironment } from '../lambdas/jobs/rotate-signing-keys';
import { serviceFunction } from './functions';
import type { AsyncFailures } from './async-failures';
import type { ServiceMetricsSource } from './service-metrics';
import { grantObjects, grantSecretPut } from './narrow-grants';

export interface KeyRotationProps {
  readonly secret: secretsmanager.ISecret;
  readonly bucket: s3.IBucket;
  readonly objectKey: string;
  readonly distribution: cloudfront.IDistribution;
  /** CloudFront TTL and max-age of jwks.json: sets the publication lead. */
  readonly cacheTtl: Duration;
  /** SIGNING_ALG of new keys. */
  readonly alg: string;
  /**
   * Days a key signs before the next one is prepared.
   * @default 30
   */
  readonly rotationDays?: number;
  /**
   * When the job runs (daily by default; each run does what is due).
   * @default events.Schedule.cron({ hour: '3', minute: '41' }) — daily, 03:41 UTC
   */
  readonly schedule?: events.Schedule;
  readonly logRetention: logs.RetentionDays;
  /** Where each completed run counts its heartbeat, KeyRotationSucceeded (behaviour OPS-3). */
  readonly serviceMetrics: ServiceMetricsSource;
  /** Where a run that failed after its retries, or a schedule that could not deliver, is kept (behaviour OPS-4). */
  readonly failures: AsyncFailures;
  /** Where each run records the set's kids and times for the dashboard (lambdas/routes.ts keyRotationRecord). */
  readonly mainTableName: string;
}

export class KeyRotation extends Construct {
  readonly function: NodejsFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: KeyRotationProps) {
    super(scope, id);
    const rotationDays = props.rotationDays ?? 30;
    if (!Number.isInteger(rotationDays) || rotationDays < 2) {
      // Under two days a daily schedule could prepare the next key before the previous retired.
      throw new Error(`keyRotationDays must be a whole number of at least 2 (got ${rotationDays})`);
    }
    const environment: RotationEnvironment = {
      SIGNING_KEY_SECRET_ARN: props.secret.secretArn,
      JWKS_BUCKET: props.bucket.bucketName,
      JWKS_OBJECT_KEY: props.objectKey,
      JWKS_DISTRIBUTION_ID: props.distribution.distributionId,
      JWKS_MAX_AGE_SECONDS: String(props.cacheTtl.toSeconds()),
      KEY_ROTATION_DAYS: String(rotationDays),
      SIGNING_ALG: props.alg,
      MAIN_TABLE_NAME: props.mainTableName,
    };
    this.function = serviceFunction(this, 'Function', {
      entry: 'lambdas/jobs/rotate-signing-keys.ts',
      description: `Scheduled: signing-key rotation every ${rotationDays} days`,
      environment: {
        ...environment,
        POWERTOOLS_METRICS_NAMESPACE: props.serviceMetrics.namespace,
        POWERTOOLS_SERVICE_NAME: props.serviceMetrics.service,
      },
      memorySize: 512,
      // RSA key generation takes up to a few seconds on a small function.
      timeout: Duration.minutes(1),
      logRetention: props.logRetention,
    });
    props.secret.grantRead(this.function);
    grantSecretPut(props.secret, this.function);
    grantObjects(props.bucket, this.function, ['s3:GetObject', 's3:PutObject'], props.objectKey);
    props.distribution.grantCreateInvalidation(this.function);

    // A failed run is retried by Lambda, then kept in the failures queue (AsyncWorkFailed); the next
    // day's run tries again anyway, and KeyRotationMissed fires if none succeeds for 36 hours.
    props.failures.watch(this.function);
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Daily signing-key rotation step',
      schedule: props.schedule ?? events.Schedule.cron({ hour: '3', minute: '41' }),
      targets: [new targets.LambdaFunction(this.function, props.failures.targetOptions())],
    });
  }
}
