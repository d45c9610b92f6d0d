import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, tableNamesFromEnv, type PhysicalTableNames } from '../adapters/dynamodb/client';
import { DynamoScopeRepository } from '../adapters/dynamodb/scope-repository';
import { cachedLoader, catalogNames } from '../core/cache';
import type { ScopeDefinition } from '../core/ports';
import type { CatalogNames } from '../core/scope';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';

export interface Storage {
  readonly db: DynamoDBDocumentClient;
  readonly tables: PhysicalTableNames;
  /** Scope catalog, cached briefly: it changes only through the admin API. */
  readonly scopes: () => Promise<readonly ScopeDefinition[]>;
  /**
   * Which names the catalog holds, for issuance (behaviour ADMIN-18): a deleted scope is issued
   * by no container more than a minute after the deletion; a name missing from the kept
   * catalog is looked up by itself (again at most once a second), so a new scope is issued at once.
   */
  readonly catalogNames: CatalogNames;
}

export const getStorage = /* @__PURE__ */ perContainer((env): Storage => {
  const db = createDocumentClient({ ...awsClientSettings(env), endpoint: env.DYNAMODB_ENDPOINT || undefined });
  const tables = tableNamesFromEnv(env);
  const scopeRepository = new DynamoScopeRepository(db, tables.main);
  const { clock } = getContainer();
  return {
    db,
    tables,
    scopes: cachedLoader(() => scopeRepository.listScopes(), 60_000, clock),
    catalogNames: catalogNames(
      () => scopeRepository.listScopes(),
      (names) => scopeRepository.existingScopes(names),
      clock,
      60_000,
      1_000,
    ),
  };
});
