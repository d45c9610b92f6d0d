/**
 * The per-container dependencies, built once from the environment (Lambda or the local
 * server) on first use and reused by later invocations. Split by weight so a function
 * bundles only what it uses: this base (settings, log, clock, randomness) for every
 * handler; `storage.ts` (DynamoDB) and `signing.ts` (signing keys) where a handler needs them.
 * These modules are the only place outside bin/ that reads process.env.
 */
import { createLogger } from '../adapters/json-logger';
import { cryptoRandom, systemClock } from '../adapters/system';
import { loadConfig, type ServiceConfig } from '../config/settings';
import type { Clock, Logger, RandomSource } from '../core/ports';

export interface Runtime {
  readonly config: ServiceConfig;
  readonly log: Logger;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export type Env = Readonly<Record<string, string | undefined>>;

const resets: (() => void)[] = [];

/** A value built from the environment once per container, forgotten by resetRuntime(). */
export function perContainer<T>(build: (env: Env) => T): () => T {
  let value: { current: T } | undefined;
  resets.push(() => (value = undefined));
  return () => (value ??= { current: build(process.env) }).current;
}

export const getRuntime = perContainer((env): Runtime => {
  const config = loadConfig(env);
  return {
    config,
    log: createLogger(config.logLevel, { service: 'authorization-server' }),
    clock: systemClock,
    random: cryptoRandom,
  };
});

/** Forgets everything built so the next call reads the environment again (the local server's restarts). */
export function resetRuntime(): void {
  for (const reset of resets) reset();
}
