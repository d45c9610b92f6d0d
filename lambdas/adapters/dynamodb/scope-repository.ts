import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AdminAuditEntry } from '../../core/model';
import type { ScopeCatalog, ScopeDefinition } from '../../core/ports';
import { auditPut, auditTableOf } from './audit-log';
import { isOwnWrite } from './items';
import { queryAll } from './pages';
import { keys, mainItems, partitions } from './keys';

/** Scopes live in the main table: pk `SCOPE#<name>`, listed through gsi1 `SCOPES` (docs/storage-schema.md). */
export class DynamoScopeRepository implements ScopeCatalog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  async listScopes(): Promise<ScopeDefinition[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partitions.scopes },
    });
    return items.map(toScope);
  }

  /** Creates the scope unless it exists; returns whether it was created. */
  async createScope(scope: ScopeDefinition, audit?: AdminAuditEntry): Promise<boolean> {
    const writeToken = randomUUID();
    if (audit) return this.createAudited(scope, audit, writeToken);
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
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  /** The scope and its `scope.create` entry in one transaction; a resend after a lost reply is the same write, not a conflict. */
  private async createAudited(scope: ScopeDefinition, audit: AdminAuditEntry, writeToken: string): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: writeToken,
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...mainItems.scope(scope), writeToken },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            auditPut(auditTableOf(this.activityTable), audit),
          ],
        }),
      );
      return true;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string; Item?: { writeToken?: { S?: string } } }[] }).CancellationReasons;
      if (reasons?.[0]?.Item?.writeToken?.S === writeToken) return true;
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /** Idempotent: a retry after a lost reply deletes nothing more and succeeds again. */
  async deleteScope(name: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.scope(name) }));
  }
}

function toScope(item: Record<string, unknown>): ScopeDefinition {
  return {
    name: String(item.name),
    description: String(item.description ?? ''),
    discoverable: item.discoverable === true,
  };
}
