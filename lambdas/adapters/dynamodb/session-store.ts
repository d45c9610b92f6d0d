import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../../core/model';
import { authRequestKey, sessionItem, sessionKey } from './ephemeral-items';
import { live, withoutKeys } from './items';
import { deleteQueried } from './pages';

/** Sign-in sessions and pending authorization requests (ephemeral table). */
export class DynamoSessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createSession(sessionId: string, session: Session, createdAt: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: sessionItem(sessionId, session, createdAt) }));
  }

  async getSession(sessionId: string, nowEpoch: number): Promise<Session | undefined> {
    // Strongly consistent: the browser follows the sign-in redirect at once.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: sessionKey(sessionId), ConsistentRead: true }));
    const item = live(Item, nowEpoch);
    return item ? withoutKeys<Session>(item) : undefined;
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: sessionKey(sessionId) }));
  }

  async deleteSessionsOf(userId: string): Promise<void> {
    await deleteQueried(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${userId}#SESSIONS` },
    });
  }


  /** The validated authorization request, held between the sign-in and consent steps. */
  async saveAuthorizationRequest<T extends object>(id: string, request: T, expiresAtEpoch: number): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...authRequestKey(id), request, ttl: expiresAtEpoch } }),
    );
  }

  async getAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: authRequestKey(id), ConsistentRead: true }));
    return live(Item, nowEpoch)?.request as T | undefined;
  }

  /** Single use: the delete is conditional, so of two concurrent completions only one proceeds. */
  async consumeAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: authRequestKey(id),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      return live(Attributes, nowEpoch)?.request as T | undefined;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  }
}
