import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ScopeCatalog, ScopeDefinition } from '../../core/ports';
import { isOwnWrite } from './items';
import { queryAll } from './pages';
import { keys, mainItems, partitions } from './keys';

/** Scopes live in the main table: pk `SCOPE#<name>`, listed through gsi1 `SCOPES` (docs/storage-schema.md). */
export class DynamoScopeRepository implements ScopeCatalog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
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
  async createScope(scope: ScopeDefinition): Promise<boolean> {
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
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  /** Deletes the scope; returns whether there was one. */
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
