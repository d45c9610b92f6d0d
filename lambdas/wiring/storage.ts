import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, tableNamesFromEnv, type PhysicalTableNames } from '../adapters/dynamodb/client';
import { DynamoScopeRepository } from '../adapters/dynamodb/scope-repository';
import { cachedLoader } from '../core/cache';
import type { ScopeDefinition } from '../core/ports';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';

export interface Storage {
  readonly db: DynamoDBDocumentClient;
  readonly tables: PhysicalTableNames;
  /** Scope catalog, cached briefly: it changes only through the admin API. */
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
}

export const getStorage = /* @__PURE__ */ perContainer((env): Storage => {
  const db = createDocumentClient({ ...awsClientSettings(env), endpoint: env.DYNAMODB_ENDPOINT || undefined });
  const tables = tableNamesFromEnv(env);
  const scopeRepository = new DynamoScopeRepository(db, tables.main);
  return { db, tables, scopes: cachedLoader(() => scopeRepository.listScopes(), 60_000, getContainer().clock) };
});
