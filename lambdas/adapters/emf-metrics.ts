/**
 * The Metrics port as CloudWatch embedded metric format (EMF): one JSON document per count on
 * stdout, which CloudWatch Logs turns into a metric without an API call (no PutMetricData latency,
 * no IAM permission). Written by the Powertools metrics library, which keeps the document valid
 * (names, units, the 30-dimension limit).
 */
import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { LogFields, Metrics } from '../core/ports';

export interface EmfMetricsOptions {
  /** The CloudWatch namespace (the construct's `metricsNamespace`). */
  readonly namespace: string;
  /** The `service` dimension every count carries: one deployment's name, so two side by side stay apart. */
  readonly service: string;
  /**
   * The current request's fields (lambdas/http/request-context.ts): written into each document as
   * metadata, not dimensions, so a metric's log line leads to its request's lines.
   */
  readonly context?: () => LogFields;
}

export function createEmfMetrics({ namespace, service, context = () => ({}) }: EmfMetricsOptions): Metrics {
  // Made on the first count: most routes count nothing, and each instance opens its own console.
  let emf: PowertoolsMetrics | undefined;
  return {
    count(metric, dimensions = {}) {
      emf ??= new PowertoolsMetrics({ namespace, serviceName: service });
      // Built and published without an await in between: concurrent requests of the local server
      // cannot mix their dimensions into one document.
      if (Object.keys(dimensions).length > 0) {
        emf.addDimensions({}); // the service alone: what alarms watch, whatever the breakdown
        emf.addDimensions(dimensions);
      }
      for (const [key, value] of Object.entries(context())) {
        if (typeof value === 'string') emf.addMetadata(key, value);
      }
      emf.addMetric(metric, MetricUnit.Count, 1);
      emf.publishStoredMetrics();
    },
  };
}

/** LOG_LEVEL=silent: nothing is written, metrics included (tests, quiet local runs). */
export const noMetrics: Metrics = { count: () => undefined };
