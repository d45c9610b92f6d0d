/**
 * The Metrics port as CloudWatch embedded metric format (EMF): JSON documents on stdout, which
 * CloudWatch Logs turns into metrics without an API call (no PutMetricData latency, no IAM
 * permission). The documents are written by Powertools Metrics (@aws-lambda-powertools/metrics),
 * which AWS maintains with the format: it checks metric names, units, values and the dimension
 * limit, and writes through its own console straight to stdout, past Lambda's console prefix.
 *
 * One document per count, published at once: a count's dimensions belong to that count only
 * (an EMF document applies its dimension sets to every metric in it, so two counts with different
 * dimensions cannot share one), a count made in a request that then throws is already written,
 * and the local server, which runs several requests at once in one process, cannot mix one
 * request's dimensions or fields into another's document (each count is built and published
 * without an await in between). What a count costs: README "Benchmarks" (bench/README.md says how to run it).
 */
import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { LogFields, Logger, Metrics } from '../core/ports';

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
  /** Where Powertools' own warnings go (an invalid dimension, a name collision), as log lines. */
  readonly log?: Logger;
}

export function createEmfMetrics({ namespace, service, context = () => ({}), log }: EmfMetricsOptions): Metrics {
  // Made on the first count: most routes count nothing.
  let emf: PowertoolsMetrics | undefined;
  const make = () =>
    new PowertoolsMetrics({
      namespace,
      serviceName: service,
      ...(log ? { logger: { debug: say(log.debug), info: say(log.info), warn: say(log.warn), error: say(log.error) } } : {}),
    });
  return {
    count(metric, dimensions = {}) {
      emf ??= make();
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

const say =
  (write: (message: string) => void) =>
  (...content: unknown[]) =>
    write(`metrics: ${content.map(String).join(' ')}`);

/** LOG_LEVEL=silent: nothing is written, metrics included (tests, quiet local runs). */
export const noMetrics: Metrics = { count: () => undefined };
