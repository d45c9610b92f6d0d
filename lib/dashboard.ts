/**
 * The operator's CloudWatch dashboard: the API's traffic, latency and errors beside the
 * service's own counts (tokens issued and refused, API-key exchanges, registrations and the
 * cap, sign-in failures and mailed codes) and the state of every alarm.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { metricNames } from '../lambdas/core/metrics';
import { serviceMetric, serviceMetricBreakdown, type ServiceMetricsSource } from './service-metrics';

export interface OperationsDashboardProps {
  readonly api: apigateway.RestApi;
  readonly serviceMetrics: ServiceMetricsSource;
  /** Shown as one status widget. */
  readonly alarms: readonly cloudwatch.IAlarm[];
  /** @default - generated */
  readonly dashboardName?: string;
}

const period = Duration.minutes(5);
const width = 8;
const height = 6;

export class OperationsDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const { api, serviceMetrics: source } = props;
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = []) =>
      new cloudwatch.GraphWidget({ title, left, right, width, height, period });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      ...(props.dashboardName ? { dashboardName: props.dashboardName } : {}),
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 3 }));
    this.dashboard.addWidgets(
      graph('API requests', [api.metricCount({ period, statistic: 'Sum', label: 'requests' })]),
      graph('API latency (ms)', [
        api.metricLatency({ period, statistic: 'p50', label: 'p50' }),
        api.metricLatency({ period, statistic: 'p90', label: 'p90' }),
        api.metricLatency({ period, statistic: 'p99', label: 'p99' }),
      ]),
      graph('API errors', [
        api.metricClientError({ period, statistic: 'Sum', label: '4xx' }),
        api.metricServerError({ period, statistic: 'Sum', label: '5xx' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Tokens issued, by grant', [serviceMetricBreakdown(source, metricNames.tokenIssued, ['grant'])]),
      graph('Token requests refused, by grant and error', [serviceMetricBreakdown(source, metricNames.tokenRefused, ['grant', 'error'])]),
      graph(
        'API-key exchanges',
        [serviceMetric(source, metricNames.apiKeyExchanged, { label: 'exchanged' })],
        [serviceMetricBreakdown(source, metricNames.apiKeyExchangeRefused, ['error'])],
      ),
    );
    this.dashboard.addWidgets(
      graph('Registrations', [
        serviceMetric(source, metricNames.clientRegistered, { label: 'registered' }),
        serviceMetric(source, metricNames.registrationCapHit, { label: 'refused by the daily cap' }),
      ]),
      graph(
        'Sign-in failures, by method',
        [serviceMetricBreakdown(source, metricNames.signInFailed, ['method'])],
        [serviceMetric(source, metricNames.passwordCeilingReached, { label: 'password ceilings reached' })],
      ),
      graph(
        'Mailed sign-in codes',
        [serviceMetric(source, metricNames.signInCodeSent, { label: 'sent' })],
        [serviceMetricBreakdown(source, metricNames.signInCodeFailed, ['reason'])],
      ),
    );
    this.dashboard.addWidgets(
      // The heartbeat KeyRotationMissed watches (behaviour OPS-3): one point a day.
      new cloudwatch.GraphWidget({
        title: 'Signing-key rotation runs completed',
        left: [serviceMetric(source, metricNames.keyRotationSucceeded, { label: 'completed', period: Duration.hours(1) })],
        width,
        height,
        period: Duration.hours(1),
      }),
    );
  }
}
