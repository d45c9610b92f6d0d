import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { AdminAuditEntry, Environment } from '../../core/model';
import { auditPut, auditTableOf } from './audit-log';
import { isConditionFailure, type TransactItem, withoutKeys } from './items';
import { deleteQueried, queryAll, queryIndexPage, type Page } from './pages';
import { keys, mainItems, partitions } from './keys';

const envKey = keys.environment;
const grantKey = keys.environmentGrant;

/** The write token of the item a cancelled transaction's first item failed against (wire or plain form). */
function firstItemToken(error: unknown): string | undefined {
  const reasons = (error as { CancellationReasons?: { Item?: { writeToken?: { S?: string } | string } }[] }).CancellationReasons;
  const token = reasons?.[0]?.Item?.writeToken;
  return typeof token === 'string' ? token : token?.S;
}

/** Environments, and their grants to users (`users_environments`, behaviour ADMIN-9). */
export class DynamoEnvironmentRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  private audited(audit: AdminAuditEntry | undefined): TransactItem[] {
    return audit ? [auditPut(auditTableOf(this.activityTable), audit)] : [];
  }

  async get(id: string): Promise<Environment | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id) }));
    return Item ? withoutKeys<Environment>(Item) : undefined;
  }

  async create(environment: Environment, audit?: AdminAuditEntry): Promise<void> {
    const writeToken = randomUUID();
    try {
      await this.db.send(
        new TransactWriteCommand({
          // DynamoDB answers the client's resend of a landed create as the first: not a conflict with itself.
          ClientRequestToken: writeToken,
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...mainItems.environment(environment), writeToken },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            ...this.audited(audit),
          ],
        }),
      );
    } catch (error) {
      if (firstItemToken(error) === writeToken) return; // this request's own write, resent after a lost reply
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

  async grant(userId: string, environmentId: string, grantedAt: string, audit?: AdminAuditEntry): Promise<void> {
    if (!audit) {
      await this.db.send(new PutCommand({ TableName: this.table, Item: mainItems.environmentGrant(userId, environmentId, grantedAt) }));
      return;
    }
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          { Put: { TableName: this.table, Item: mainItems.environmentGrant(userId, environmentId, grantedAt) } },
          ...this.audited(audit),
        ],
      }),
    );
  }

  /** With `audit`, the grant's deletion and its entry in one transaction; idempotent (a missing grant is deleted again). */
  async revoke(userId: string, environmentId: string, audit?: AdminAuditEntry): Promise<boolean> {
    if (audit) {
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [{ Delete: { TableName: this.table, Key: grantKey(userId, environmentId) } }, ...this.audited(audit)],
        }),
      );
      return true;
    }
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
