/**
 * What every request handler works with, once per container (lambdas/wiring/container.ts builds
 * it): the validated settings, the logger, the metrics, the clock and randomness. The domain takes
 * the parts it needs as arguments; it never sees the settings object whole.
 */
import type { ServiceConfig } from '../config/settings';
import type { Clock, Logger, Metrics, RandomSource } from '../core/ports';

export interface Container {
  readonly config: ServiceConfig;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly random: RandomSource;
}
