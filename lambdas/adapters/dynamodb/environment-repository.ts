import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { Environment } from '../../core/model';
import { isConditionFailure, isOwnWrite, withoutKeys } from './items';
import { deleteQueried, queryAll, queryIndexPage, type Page } from './pages';
import { keys, mainItems, partitions } from './keys';

const envKey = keys.environment;
const grantKey = keys.environmentGrant;

/** Environments, and their grants to users (`users_environments`, behaviour ADMIN-9). */
export class DynamoEnvironmentRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(id: string): Promise<Environment | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id) }));
    return Item ? withoutKeys<Environment>(Item) : undefined;
  }

  async create(environment: Environment): Promise<void> {
    const writeToken = randomUUID();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...mainItems.environment(environment), writeToken },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (isOwnWrite(error, writeToken)) return; // this request's own write, resent after a lost reply
      if (isConditionFailure(error)) throw new ConflictError(`environment ${environment.id}`);
      throw error;
    }
  }

  list(limit: number, cursor?: string): Promise<Page<Environment>> {
    return queryIndexPage<Environment>(this.db, this.table, partitions.environments, limit, cursor);
  }

  async delete(id: string): Promise<boolean> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.table, Key: envKey(id), ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined;
  }

  /** Strongly consistent: a grant or revocation counts on the very next authorization. */
  async hasAccess(userId: string, environmentId: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: grantKey(userId, environmentId), ConsistentRead: true }),
    );
    return Item !== undefined;
  }

  async grant(userId: string, environmentId: string, grantedAt: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: mainItems.environmentGrant(userId, environmentId, grantedAt),
      }),
    );
  }

  async revoke(userId: string, environmentId: string): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.table, Key: grantKey(userId, environmentId), ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }

  /** The user's grants with their time, for the admin API. */
  async grantsOf(userId: string): Promise<{ userId: string; environmentId: string; grantedAt: string }[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :env)',
      ExpressionAttributeValues: { ':pk': partitions.user(userId), ':env': partitions.environmentGrantPrefix },
      ConsistentRead: true,
    });
    return items.map((item) => ({ userId, environmentId: String(item.environmentId), grantedAt: String(item.grantedAt) }));
  }

  /** Deletes every grant of the environment (before the environment itself is deleted). */
  async revokeAllGrantsTo(environmentId: string): Promise<void> {
    await deleteQueried(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partitions.usersOfEnvironment(environmentId) },
    });
  }
}
