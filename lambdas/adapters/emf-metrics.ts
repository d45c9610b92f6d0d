/**
 * The Metrics port as CloudWatch embedded metric format (EMF): one JSON document per count on
 * stdout, which CloudWatch Logs turns into a metric without an API call (no PutMetricData latency,
 * no IAM permission). Written by the Powertools metrics library, which keeps the document valid
 * (names, units, the 30-dimension limit).
 */
import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '../core/ports';

export interface EmfMetricsOptions {
  /** The CloudWatch namespace (the construct's `metricsNamespace`). */
  readonly namespace: string;
  /** The `service` dimension every count carries: one deployment's name, so two side by side stay apart. */
  readonly service: string;
}

export function createEmfMetrics({ namespace, service }: EmfMetricsOptions): Metrics {
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
      emf.addMetric(metric, MetricUnit.Count, 1);
      emf.publishStoredMetrics();
    },
  };
}

/** LOG_LEVEL=silent: nothing is written, metrics included (tests, quiet local runs). */
export const noMetrics: Metrics = { count: () => undefined };
