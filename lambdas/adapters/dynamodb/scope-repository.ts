import { randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CatalogCheck } from '../../core/admin/ports';
import type { AdminAuditEntry } from '../../core/model';
import type { ScopeCatalog, ScopeDefinition } from '../../core/ports';
import { backoff, retry, tryAgain } from '../../core/retry';
import { auditPut, auditTableOf } from './audit-log';
import { putNew } from './conditional-writes';
import { cancellationCodes, isConditionFailure, isOwnWrite } from './items';
import { gsi1Query, queryAll } from './pages';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import * as partitions from './keys/partitions';

/** Scopes live in the main table: pk `SCOPE#<name>`, listed through gsi1 `SCOPES` (docs/storage-schema.md). */
export class DynamoScopeRepository implements ScopeCatalog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  async listScopes(): Promise<ScopeDefinition[]> {
    const items = await queryAll(this.db, gsi1Query(this.table, partitions.scopes));
    return items.map(toScope);
  }

  /** Creates the scope unless it exists; returns whether it was created. */
  async createScope(scope: ScopeDefinition, audit?: AdminAuditEntry): Promise<boolean> {
    if (audit) return this.createAudited(scope, audit);
    const writeToken = randomUUID();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...mainItems.scope(scope), writeToken },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return true;
    } catch (error) {
      // A resend after a lost reply meets this request's own write: that is a creation, not a conflict.
      if (isOwnWrite(error, writeToken)) return true;
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The scope and its `scope.create` entry in one transaction; a resend after a lost reply is the same write, not a conflict. */
  private async createAudited(scope: ScopeDefinition, audit: AdminAuditEntry): Promise<boolean> {
    try {
      await putNew(this.db, this.table, mainItems.scope(scope), [auditPut(auditTableOf(this.activityTable), audit)]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /**
   * Which of `names` the catalog lacks, read strongly consistently (the gsi1 list may lag a
   * deletion), and the catalog version, read before them: a write conditioned on that version
   * fails if any scope was deleted after these reads (behaviour ADMIN-18).
   */
  async checkScopes(names: readonly string[]): Promise<CatalogCheck & { readonly missing: readonly string[] }> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.scopeCatalogVersion(), ConsistentRead: true }));
    const catalogVersion = Item?.version as string | undefined;
    const found = await this.existingScopes(names);
    return { catalogVersion, missing: [...new Set(names)].filter((name) => !found.has(name)) };
  }

  /** Which of `names` are in the catalog now: strongly consistent reads of their items. */
  async existingScopes(names: readonly string[]): Promise<ReadonlySet<string>> {
    const unique = [...new Set(names)];
    const found = new Set<string>();
    for (let i = 0; i < unique.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map((name) => keys.scope(name));
      const done = await retry(
        async () => {
          const result = await this.db.send(
            new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[this.table] ?? []) found.add(String(item.name));
          pending = result.UnprocessedKeys?.[this.table]?.Keys;
          return pending?.length ? tryAgain : true;
        },
        { attempts: 5, delayMs: backoff(20) },
      );
      if (!done) throw new Error('DynamoDB left consistent reads unprocessed');
    }
    return found;
  }

  /**
   * Deletes the scope and gives the catalog a new version in one transaction, so an admin
   * write granting scopes that checked the catalog before this fails instead of granting a
   * deleted scope (behaviour ADMIN-18), and its `scope.delete` entry with them (LOG-9).
   * Idempotent: the DynamoDB client's resend of the transaction is applied once, and a delete of
   * an absent scope only moves the version.
   */
  async deleteScope(name: string, audit: AdminAuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          { Delete: { TableName: this.table, Key: keys.scope(name) } },
          { Put: { TableName: this.table, Item: { ...keys.scopeCatalogVersion(), version: randomUUID() } } },
          auditPut(auditTableOf(this.activityTable), audit),
        ],
      }),
    );
  }
}

function toScope(item: Record<string, unknown>): ScopeDefinition {
  return {
    name: String(item.name),
    description: String(item.description ?? ''),
    discoverable: item.discoverable === true,
  };
}
