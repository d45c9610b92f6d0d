import type { DynamoDocumentClient } from '../adapters/aws/dynamodb';
import { credentialsFromEnv } from '../adapters/aws/transport';
import { createDocumentClient, tableNamesFromEnv, type PhysicalTableNames } from '../adapters/dynamodb/client';
import { DynamoScopeRepository } from '../adapters/dynamodb/scope-repository';
import { cachedLoader } from '../core/cache';
import type { ScopeDefinition } from '../core/ports';
import { getContainer, perContainer } from './container';

export interface Storage {
  readonly db: DynamoDocumentClient;
  readonly tables: PhysicalTableNames;
  /** Scope catalog, cached briefly: it changes only through the admin API. */
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
}

export const getStorage = /* @__PURE__ */ perContainer((env): Storage => {
  const db = createDocumentClient({
    endpoint: env.DYNAMODB_ENDPOINT,
    region: env.AWS_REGION,
    credentials: () => credentialsFromEnv(env),
  });
  const tables = tableNamesFromEnv(env);
  const scopeRepository = new DynamoScopeRepository(db, tables.main);
  return { db, tables, scopes: cachedLoader(() => scopeRepository.listScopes(), 60_000, getContainer().clock) };
});
