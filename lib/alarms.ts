/**
 * CloudWatch alarms for the things an operator must hear about: server errors at the
 * API, function errors and throttles, failed or missed key rotations, unusual WAF blocking,
 * DynamoDB throttling and errors per table, async work that failed for good, the mail's
 * reputation, and spikes in the service's own refusals (lambdas/core/metrics.ts): guessed
 * client secrets, API keys, passwords or sign-in codes, and a registration cap that keeps firing.
 * Every alarm and its recovery go to one SNS topic, which always exists (behaviour OPS-1).
 * Missing data is "not breaching" (a quiet service is a healthy one), except for the key
 * rotation heartbeat, whose silence is the failure it watches for.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableDefinitions } from '../lambdas/adapters/dynamodb/table-definitions';
import { metricNames } from '../lambdas/core/metrics';
import type { TableName } from '../lambdas/routes';
import { serviceMetric, type ServiceMetricsSource } from './service-metrics';
import { tableId } from './tables';

/**
 * Levels at which an alarm fires. The counts of the service's own metrics are sums over their
 * period; the mail rates are SES's account-level reputation (0.05 is 5 %).
 */
export interface ServiceAlarmThresholds {
  /** Token requests refused in 5 minutes (TokenRefused, every grant and error). @default 100 */
  readonly tokensRefusedPer5Minutes?: number;
  /** API-key exchanges refused in 5 minutes (ApiKeyExchangeRefused). @default 50 */
  readonly apiKeyExchangesRefusedPer5Minutes?: number;
  /** Sign-ins refused in 5 minutes (SignInFailed: password and passkey). @default 50 */
  readonly signInFailuresPer5Minutes?: number;
  /** Sign-in codes not accepted in 5 minutes (SignInCodeFailed). @default 25 */
  readonly signInCodeFailuresPer5Minutes?: number;
  /** Registrations refused by the per-address daily cap in an hour (RegistrationCapHit). @default 20 */
  readonly registrationCapHitsPerHour?: number;
  /**
   * Addresses whose failed-password ceiling for strangers tripped in an hour (PasswordCeilingReached,
   * once per address and 15-minute window; behaviour PWFAIL-5). @default 5
   */
  readonly passwordCeilingsReachedPerHour?: number;
  /**
   * SES's account-level bounce rate (`Reputation.BounceRate`). SES places an account under review
   * at 5 % and may pause its sending at 10 %; this fires before the review. @default 0.04
   */
  readonly mailBounceRate?: number;
  /**
   * SES's account-level complaint rate (`Reputation.ComplaintRate`). SES reviews at 0.1 % and may
   * pause at 0.5 %; this fires before the review. @default 0.0008
   */
  readonly mailComplaintRate?: number;
  /** Bounces and complaints of this deployment's own mail in an hour (its mail-events topic). @default 10 */
  readonly mailBouncesAndComplaintsPerHour?: number;
  /** Read and write throttle events of one table (its index included) in 5 minutes. @default 1 */
  readonly tableThrottlesPer5Minutes?: number;
}

export interface AlarmsProps {
  readonly api: apigateway.RestApi;
  /** Every function serving requests or jobs. */
  readonly functions: readonly lambda.IFunction[];
  /** The key-rotation function: one failure is worth an alarm of its own. */
  readonly keyRotation: lambda.IFunction;
  /**
   * Where changes to the signing key or jwks.json by anyone but their publishers are logged
   * (lib/key-change-watch.ts): one line is one alarm (behaviour CUSTODY-3).
   * @default - no KeyMaterialChanged alarm
   */
  readonly keyChanges?: logs.ILogGroup;
  /** The WAF web ACL's name (metric dimension) and region. */
  readonly webAclName: string;
  readonly region: string;
  /** Where every alarm and its recovery are sent. */
  readonly topic: sns.ITopic;
  /** The tables: throttling and DynamoDB's own errors are watched per table. */
  readonly tables: Readonly<Record<TableName, dynamodb.ITableV2>>;
  /** Where async invocations and scheduled deliveries that failed for good land (behaviour OPS-4). */
  readonly asyncFailures: sqs.IQueue;
  /** The topic SES publishes this deployment's bounces and complaints to (lib/mail.ts). */
  readonly mailEvents: sns.ITopic;
  /**
   * WAF-blocked requests per 5 minutes that count as an attack worth a look.
   * @default 500
   */
  readonly wafBlockedThreshold?: number;
  /** Where the service's own metrics are (namespace and this deployment's service dimension). */
  readonly serviceMetrics: ServiceMetricsSource;
  /** @default - the defaults of each ServiceAlarmThresholds field */
  readonly serviceThresholds?: ServiceAlarmThresholds;
}

/** CloudWatch metric math takes at most 10 metrics per alarm expression. */
const metricsPerAlarm = 10;

/** The DynamoDB operations the service calls (lambdas/adapters/dynamodb): DynamoDB reports SystemErrors per operation. */
const operationsCalled = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/** Hours without a successful rotation run before KeyRotationMissed fires: a day and a half, so one late run is not an alarm. */
export const keyRotationHeartbeatHours = 36;

export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly topic: sns.ITopic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = props.topic;
    const period = Duration.minutes(5);
    const thresholds = props.serviceThresholds ?? {};

    this.add('Api5xx', {
      metric: props.api.metricServerError({ period, statistic: 'Sum' }),
      threshold: 5,
      alarmDescription: 'The API answered 5 or more 5xx responses in 5 minutes (function errors, timeouts, throttles).',
    });

    for (const [kind, metricOf] of [
      ['Errors', (fn: lambda.IFunction) => fn.metricErrors({ period, statistic: 'Sum' })],
      ['Throttles', (fn: lambda.IFunction) => fn.metricThrottles({ period, statistic: 'Sum' })],
    ] as const) {
      for (let start = 0, group = 1; start < props.functions.length; start += metricsPerAlarm, group++) {
        const chunk = props.functions.slice(start, start + metricsPerAlarm);
        const usingMetrics = Object.fromEntries(chunk.map((fn, i) => [`m${i}`, metricOf(fn)]));
        this.add(`Function${kind}${group}`, {
          metric: new cloudwatch.MathExpression({ expression: Object.keys(usingMetrics).join(' + '), usingMetrics, period }),
          threshold: kind === 'Errors' ? 5 : 1,
          alarmDescription: `Lambda ${kind.toLowerCase()} of functions ${start + 1}-${start + chunk.length} (of ${props.functions.length}) in 5 minutes.`,
        });
      }
    }

    this.add('KeyRotationErrors', {
      metric: props.keyRotation.metricErrors({ period: Duration.hours(1), statistic: 'Sum' }),
      threshold: 1,
      alarmDescription:
        'The signing-key rotation job failed; it retries daily, but rotation is stalled until it succeeds. Its log also says when it found jwks.json publishing another key under a kid of the key set (behaviour CUSTODY-5): republished, but something else wrote jwks.json.',
    });
    // Behaviour OPS-3: a heartbeat, so a job that never starts (a disabled schedule, a deleted
    // rule or function, a broken deploy) is heard of too, not only a run that throws.
    this.add('KeyRotationMissed', {
      metric: serviceMetric(props.serviceMetrics, metricNames.keyRotationSucceeded, { period: Duration.hours(1) }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: keyRotationHeartbeatHours,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      alarmDescription: `No successful signing-key rotation run in ${keyRotationHeartbeatHours} hours (it runs daily): the schedule, the function or its permissions are broken, and keys stop rotating.`,
    });

    if (props.keyChanges) {
      this.add('KeyMaterialChanged', {
        metric: new cloudwatch.Metric({
          namespace: 'AWS/Logs',
          metricName: 'IncomingLogEvents',
          dimensionsMap: { LogGroupName: props.keyChanges.logGroupName },
          period,
          statistic: 'Sum',
        }),
        threshold: 1,
        alarmDescription: `Behaviour CUSTODY-3: the signing-key secret or jwks.json was changed by someone other than the rotation job and its deploy-time creator. The log group ${props.keyChanges.logGroupName} holds the CloudTrail record (who, when, from where). Expected once after a deploy that changes the secret's policy or description; otherwise treat the signing key as compromised (docs/deployment.md, Key custody).`,
      });
    }

    this.add('WafBlocked', {
      metric: new cloudwatch.Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: props.webAclName, Region: props.region, Rule: 'ALL' },
        period,
        statistic: 'Sum',
      }),
      threshold: props.wafBlockedThreshold ?? 500,
      alarmDescription: 'The WAF blocked an unusual number of requests in 5 minutes (an attack, or a rule blocking legitimate clients).',
    });

    for (const [name, table] of Object.entries(props.tables) as [TableName, dynamodb.ITableV2][]) {
      this.addTableAlarms(name, table, thresholds.tableThrottlesPer5Minutes ?? 1);
    }

    // Behaviour OPS-4: what Lambda gave up on after its retries, and schedules that could not deliver.
    this.add('AsyncWorkFailed', {
      metric: props.asyncFailures.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      threshold: 1,
      alarmDescription:
        'Background work failed after its retries (key rotation, counter pruning, a password-reset or ceiling mail, a statistics batch) and its event waits in the async-failures queue: read it, fix the cause, then purge it.',
    });

    this.addMailAlarms(props.mailEvents, thresholds);
    this.addServiceAlarms(props.serviceMetrics, thresholds);

    for (const alarm of this.alarms) {
      alarm.addAlarmAction(new actions.SnsAction(this.topic));
      alarm.addOkAction(new actions.SnsAction(this.topic));
    }
  }

  /** Behaviour OPS-8: throttling (a hot key or a burst past what on-demand has scaled to) and DynamoDB's own 500s, per table. */
  private addTableAlarms(name: TableName, table: dynamodb.ITableV2, throttleThreshold: number): void {
    const period = Duration.minutes(5);
    const indexes = [undefined, ...tableDefinitions[name].globalIndexes.map((index) => index.indexName)];
    const usingMetrics: Record<string, cloudwatch.IMetric> = {};
    for (const [i, indexName] of indexes.entries()) {
      const dimensionsMap = { TableName: table.tableName, ...(indexName ? { GlobalSecondaryIndexName: indexName } : {}) };
      for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        usingMetrics[`${metricName === 'ReadThrottleEvents' ? 'r' : 'w'}${i}`] = new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap,
          statistic: 'Sum',
          period,
        });
      }
    }
    this.add(`${tableId(name)}TableThrottles`, {
      metric: new cloudwatch.MathExpression({ expression: Object.keys(usingMetrics).join(' + '), usingMetrics, period }),
      threshold: throttleThreshold,
      alarmDescription: `DynamoDB throttled reads or writes of the ${name} table (or its index) in 5 minutes: a hot key, or traffic past what on-demand capacity has scaled to. The SDK retries, but requests slow down and may fail.`,
    });
    this.add(`${tableId(name)}TableSystemErrors`, {
      metric: table.metricSystemErrorsForOperations({ operations: operationsCalled, period }),
      threshold: 1,
      alarmDescription: `DynamoDB answered internal errors (500) to calls on the ${name} table in 5 minutes: requests may have failed; see the AWS Health Dashboard.`,
    });
  }

  /** Behaviour OPS-2: the sender's reputation (account-wide) and this deployment's own bounces and complaints. */
  private addMailAlarms(mailEvents: sns.ITopic, thresholds: ServiceAlarmThresholds): void {
    const hour = Duration.hours(1);
    const reputation = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: hour });
    this.add('MailBounceRate', {
      metric: reputation('Reputation.BounceRate'),
      threshold: thresholds.mailBounceRate ?? 0.04,
      alarmDescription:
        "SES's bounce rate for this account is near the 5 % at which SES reviews the account (10 % may pause its sending): mail to addresses that do not exist. Every sender of the account counts.",
    });
    this.add('MailComplaintRate', {
      metric: reputation('Reputation.ComplaintRate'),
      threshold: thresholds.mailComplaintRate ?? 0.0008,
      alarmDescription:
        "SES's complaint rate for this account is near the 0.1 % at which SES reviews the account (0.5 % may pause its sending): recipients marking mail as spam. Every sender of the account counts.",
    });
    this.add('MailBouncesAndComplaints', {
      metric: mailEvents.metricNumberOfMessagesPublished({ period: hour, statistic: 'Sum' }),
      threshold: thresholds.mailBouncesAndComplaintsPerHour ?? 10,
      alarmDescription:
        "This deployment's mail bounced or drew complaints many times in an hour (the mail-events topic holds each event, with the recipient): mistyped addresses at registration, or mail marked as spam.",
    });
  }

  /** Refusal spikes: each is normal one at a time and a guessing attack (or a broken client) in bulk. */
  private addServiceAlarms(source: ServiceMetricsSource, thresholds: ServiceAlarmThresholds): void {
    const period = Duration.minutes(5);
    this.add('TokensRefused', {
      metric: serviceMetric(source, metricNames.tokenRefused, { period }),
      threshold: thresholds.tokensRefusedPer5Minutes ?? 100,
      alarmDescription:
        'Many token requests refused in 5 minutes: client secrets or refresh tokens being guessed, or a client broken by a rotated secret. The dashboard splits them by grant and error.',
    });
    this.add('ApiKeyExchangesRefused', {
      metric: serviceMetric(source, metricNames.apiKeyExchangeRefused, { period }),
      threshold: thresholds.apiKeyExchangesRefusedPer5Minutes ?? 50,
      alarmDescription: 'Many API-key exchanges refused in 5 minutes: keys being guessed, or a revoked key still in use.',
    });
    this.add('SignInFailures', {
      metric: serviceMetric(source, metricNames.signInFailed, { period }),
      threshold: thresholds.signInFailuresPer5Minutes ?? 50,
      alarmDescription: 'Many sign-ins refused in 5 minutes: passwords being guessed (credential stuffing).',
    });
    this.add('SignInCodeFailures', {
      metric: serviceMetric(source, metricNames.signInCodeFailed, { period }),
      threshold: thresholds.signInCodeFailuresPer5Minutes ?? 25,
      alarmDescription: 'Many mailed sign-in codes not accepted in 5 minutes: codes being guessed after stolen passwords.',
    });
    // Slow, targeted guessing stays under SignInFailures (ten failures per account and 15 minutes): this sees it.
    this.add('PasswordCeilingsReached', {
      metric: serviceMetric(source, metricNames.passwordCeilingReached, { period: Duration.hours(1) }),
      threshold: thresholds.passwordCeilingsReachedPerHour ?? 5,
      alarmDescription:
        'The failed-password ceiling held strangers off several addresses in an hour: passwords of chosen accounts being guessed (each owner was mailed; their own browsers and passkeys still sign in).',
    });
    this.add('RegistrationCapHits', {
      metric: serviceMetric(source, metricNames.registrationCapHit, { period: Duration.hours(1) }),
      threshold: thresholds.registrationCapHitsPerHour ?? 20,
      alarmDescription:
        'The per-address daily registration cap refused many registrations in an hour: automated registration, or many users behind one address (raise DCR_RATE_LIMIT_PER_DAY).',
    });
  }

  private add(
    id: string,
    options: {
      metric: cloudwatch.IMetric;
      threshold: number;
      alarmDescription: string;
      comparisonOperator?: cloudwatch.ComparisonOperator;
      evaluationPeriods?: number;
      treatMissingData?: cloudwatch.TreatMissingData;
    },
  ): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      comparisonOperator: options.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: options.treatMissingData ?? cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: options.alarmDescription,
    });
    this.alarms.push(alarm);
  }
}
