import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../../core/model';
import { sessionItem } from './ephemeral-items';
import { live, withoutKeys } from './items';
import { deleteQueried, gsi1Query } from './pages';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { claimOnce } from './claim';

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
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.session(sessionId), ConsistentRead: true }));
    const item = live(Item, nowEpoch);
    return item ? withoutKeys<Session>(item) : undefined;
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.session(sessionId) }));
  }

  async deleteSessionsOf(userId: string): Promise<void> {
    await deleteQueried(this.db, gsi1Query(this.table, partitions.sessionsOfUser(userId)));
  }

  /** The validated authorization request, held between the sign-in and consent steps. */
  async saveAuthorizationRequest<T extends object>(id: string, request: T, expiresAtEpoch: number): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...keys.authorizationRequest(id), request, ttl: expiresAtEpoch } }));
  }

  async getAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: keys.authorizationRequest(id), ConsistentRead: true }),
    );
    const item = live(Item, nowEpoch);
    return item?.consumedBy === undefined ? (item?.request as T | undefined) : undefined;
  }

  /**
   * Single use: the request is claimed by a conditional update, so of two concurrent
   * completions only one proceeds; a claimed request is absent from then on (TTL removes
   * it). The claim carries a per-request token: when the DynamoDB client resends it after a lost reply,
   * the condition lets this request's own claim through again (behaviour ERR-5).
   */
  async consumeAuthorizationRequest<T>(id: string, nowEpoch: number): Promise<T | undefined> {
    return (await claimOnce(this.db, this.table, keys.authorizationRequest(id), nowEpoch))?.request as T | undefined;
  }
}
