/**
 * lambdas/wiring: where the adapters are plugged into the domain, once per Lambda container
 * (execution environment) or local server, on first use, and reused by later invocations.
 * Handlers take what they need from here and pass it on as arguments; nothing below the
 * handlers (lambdas/http, core, adapters) reaches in. Split by weight so a function bundles
 * only what it uses: this module (settings, log, clock, randomness) for every handler;
 * `storage.ts` (DynamoDB), `signing.ts` (signing keys) and the rest where a handler needs them.
 * These modules are the only place outside bin/ that reads process.env.
 */
import { createEmfMetrics, noMetrics } from '../adapters/emf-metrics';
import { createLogger } from '../adapters/json-logger';
import { cryptoRandom, systemClock } from '../adapters/system';
import { booleanFlag, ConfigError, loadConfig } from '../config/settings';
import { requestFields } from '../http/request-context';
import type { Container } from '../http/container';

export type { Container };

export type Env = Readonly<Record<string, string | undefined>>;

const resets: (() => void)[] = [];

/** A value built from the environment once per container, forgotten by resetContainer(). */
export function perContainer<T>(build: (env: Env) => T): () => T {
  let value: { current: T } | undefined;
  resets.push(() => (value = undefined));
  return () => (value ??= { current: build(process.env) }).current;
}

/**
 * POWERTOOLS_METRICS_DISABLED (the local server sets it, README "The local server"): "true" or
 * "false", as every switch; unset, metrics are written. Powertools reads the same variable itself
 * with a wider vocabulary ("1", "yes", "on" mean true; an empty value is an error), so any other
 * value is refused here: the two readings never disagree. (Unset, Powertools would also switch
 * itself off under POWERTOOLS_DEV, which the stack never sets.)
 */
function metricsDisabled(value: string | undefined): boolean {
  if (value === undefined) return false;
  const flag = booleanFlag.safeParse(value.trim());
  if (!flag.success) throw new ConfigError([`POWERTOOLS_METRICS_DISABLED must be "true" or "false" (got ${JSON.stringify(value)})`]);
  return flag.data;
}

export const getContainer = perContainer((env): Container => {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel, { service: 'authorization-server' }, requestFields);
  return {
    config,
    log,
    // The construct names the namespace and this deployment (lib/authorization-server.ts); locally the defaults.
    metrics:
      config.logLevel === 'silent' || metricsDisabled(env.POWERTOOLS_METRICS_DISABLED)
        ? noMetrics
        : createEmfMetrics({
            namespace: env.POWERTOOLS_METRICS_NAMESPACE || 'Tollgate',
            service: env.POWERTOOLS_SERVICE_NAME || 'authorization-server',
            context: requestFields,
            log,
          }),
    clock: systemClock,
    random: cryptoRandom,
  };
});

/** Forgets everything built so the next call reads the environment again (the local server's restarts). */
export function resetContainer(): void {
  for (const reset of resets) reset();
}
