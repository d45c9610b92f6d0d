/**
 * CloudWatch alarms for the things an operator must hear about: server errors at the
 * API, function errors and throttles, failed key rotations, unusual WAF blocking, and
 * spikes in the service's own refusals (lambdas/core/metrics.ts): guessed client secrets,
 * API keys, passwords or sign-in codes, and a registration cap that keeps firing.
 * Alarms fire into an optional SNS topic; without one they are visible in the console.
 * Missing data is "not breaching": a quiet service is a healthy one.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { metricNames } from '../lambdas/core/metrics';
import { serviceMetric, type ServiceMetricsSource } from './service-metrics';

/** Counts of the service's own metrics at which an alarm fires; each is a sum over its period. */
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
  /** Where alarms and their recovery are sent. @default - no action */
  readonly topic?: sns.ITopic;
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

export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  /** True once the alarms have an action (notify was called). */
  notifying = false;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);

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

    this.addServiceAlarms(props.serviceMetrics, props.serviceThresholds ?? {});

    if (props.topic) this.notify(props.topic);
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

  private add(id: string, options: { metric: cloudwatch.IMetric; threshold: number; alarmDescription: string }): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: options.alarmDescription,
    });
    this.alarms.push(alarm);
  }

  /** Sends every alarm (and its return to OK) to the topic. */
  notify(topic: sns.ITopic): void {
    this.notifying = true;
    for (const alarm of this.alarms) {
      alarm.addAlarmAction(new actions.SnsAction(topic));
      alarm.addOkAction(new actions.SnsAction(topic));
    }
  }
}
