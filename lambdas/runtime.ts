/**
 * The per-container dependencies of every handler, built once from the environment
 * (Lambda or the local server) on first use and reused by later invocations.
 * This is the one place outside bin/ that reads process.env.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, tableNamesFromEnv, type PhysicalTableNames } from './adapters/dynamodb/client';
import { DynamoScopeRepository } from './adapters/dynamodb/scope-repository';
import { createLogger } from './adapters/json-logger';
import { createSigner, type JwtSigner } from './adapters/signing/key-set';
import { keySourceFromEnv } from './adapters/signing/key-sources';
import { cryptoRandom, systemClock } from './adapters/system';
import { loadConfig, type ServiceConfig } from './config/settings';
import { cachedLoader } from './core/cache';
import type { Clock, Logger, RandomSource, ScopeDefinition } from './core/ports';

export interface Runtime {
  readonly config: ServiceConfig;
  readonly log: Logger;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly db: DynamoDBDocumentClient;
  readonly tables: PhysicalTableNames;
  /** Scope catalog, cached briefly: it changes only through the admin API. */
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
  /**
   * The token signer, loaded on first use and then kept for a few minutes per container,
   * so a rotated key set is picked up without a per-request Secrets Manager call.
   */
  readonly signer: () => Promise<JwtSigner>;
}

type Env = Readonly<Record<string, string | undefined>>;

export function createRuntime(env: Env): Runtime {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel, { service: 'authorization-server' });
  const db = createDocumentClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION });
  const tables = tableNamesFromEnv(env);
  const scopeRepository = new DynamoScopeRepository(db, tables.main);
  return {
    config,
    log,
    clock: systemClock,
    random: cryptoRandom,
    db,
    tables,
    scopes: cachedLoader(() => scopeRepository.listScopes(), 60_000, systemClock),
    signer: cachedLoader(async () => createSigner(await keySourceFromEnv(env)()), 5 * 60_000, systemClock),
  };
}

let current: Runtime | undefined;

export function getRuntime(): Runtime {
  current ??= createRuntime(process.env);
  return current;
}

/** Forgets the built runtime so the next call reads the environment again (the local server's restarts). */
export function resetRuntime(): void {
  current = undefined;
}
