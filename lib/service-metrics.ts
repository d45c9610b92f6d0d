/**
 * The service's own metrics (lambdas/core/metrics.ts) as CloudWatch sees them: each count is
 * published under the `service` dimension alone (totals, for alarms) and with its breakdown
 * dimension (per grant, error code, method), which the dashboard reads with SEARCH.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { MetricName } from '../lambdas/core/metrics';

export interface ServiceMetricsSource {
  /** CloudWatch namespace (POWERTOOLS_METRICS_NAMESPACE of the functions). */
  readonly namespace: string;
  /** This deployment's `service` dimension (POWERTOOLS_SERVICE_NAME of the functions). */
  readonly service: string;
}

const defaultPeriod = Duration.minutes(5);

/** The total of one count for this deployment, summed per period. */
export function serviceMetric(
  source: ServiceMetricsSource,
  metricName: MetricName,
  options: { readonly label?: string; readonly period?: Duration } = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: source.namespace,
    metricName,
    dimensionsMap: { service: source.service },
    statistic: cloudwatch.Stats.SUM,
    period: options.period ?? defaultPeriod,
    // No default label: a labelled metric makes an alarm a metric-math alarm.
    ...(options.label ? { label: options.label } : {}),
  });
}

/**
 * One line per value of the breakdown dimensions (e.g. per grant and error code), found by a
 * SEARCH expression so a value first seen tomorrow (a new error code) shows without a redeploy.
 */
export function serviceMetricBreakdown(
  source: ServiceMetricsSource,
  metricName: MetricName,
  dimensions: readonly string[],
): cloudwatch.MathExpression {
  const schema = [`"${source.namespace}"`, 'service', ...dimensions].join(',');
  const seconds = defaultPeriod.toSeconds();
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${metricName}" service="${source.service}"', 'Sum', ${seconds})`,
    usingMetrics: {},
    // One line per series, named by its dimension values (CloudWatch dynamic labels).
    label: dimensions.map((dimension) => `\${PROP('Dim.${dimension}')}`).join(' '),
    period: defaultPeriod,
  });
}
