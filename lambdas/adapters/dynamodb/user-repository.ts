import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { UserChanges } from '../../core/admin/ports';
import type { User } from '../../core/model';
import { isConditionFailure, withoutKeys } from './items';
import { deleteQueried, queryIndexPage, type Page } from './pages';
import { keys, mainItems, partitions } from './keys';

const userKey = keys.user;
const emailKey = keys.email;

/**
 * Users in the main table. Email uniqueness is a separate `EMAIL#<email>` item written in
 * the same transaction as the user, with `attribute_not_exists`, so two concurrent
 * registrations of one address cannot both succeed.
 */
export class DynamoUserRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(id: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: userKey(id) }));
    return Item ? withoutKeys<User>(Item) : undefined;
  }

  /**
   * The user as stored now (strongly consistent): what a session, code or refresh token is held
   * against on use, so a password change a moment ago counts (behaviour RESET-8).
   */
  async current(id: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: userKey(id), ConsistentRead: true }));
    return Item ? withoutKeys<User>(Item) : undefined;
  }

  /** Two reads either way, so the time of a sign-in does not tell whether the address exists. */
  async findByEmail(email: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: emailKey(email.toLowerCase()) }));
    if (!Item) {
      await this.get('usr_absent');
      return undefined;
    }
    return this.get(String(Item.userId));
  }

  async create(user: User): Promise<void> {
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Put: {
          TableName: this.table,
          Item: mainItems.user(user),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (user.email) {
      items.push({
        Put: { TableName: this.table, Item: mainItems.email(user.email, user.id), ConditionExpression: 'attribute_not_exists(pk)' },
      });
    }
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`email ${user.email ?? ''}`);
      throw error;
    }
  }

  list(limit: number, cursor?: string): Promise<Page<User>> {
    return queryIndexPage<User>(this.db, this.table, partitions.users, limit, cursor);
  }

  /** Applies changes; an email change moves the uniqueness item in the same transaction. */
  async update(current: User, changes: UserChanges, updatedAt: string): Promise<User> {
    const next: User = { ...current, ...changes, updatedAt };
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Put: {
          TableName: this.table,
          Item: mainItems.user(next),
          // Optimistic concurrency: the user was not changed since it was read.
          ConditionExpression: current.updatedAt ? 'updatedAt = :seen' : 'attribute_exists(pk) AND attribute_not_exists(updatedAt)',
          ...(current.updatedAt ? { ExpressionAttributeValues: { ':seen': current.updatedAt } } : {}),
        },
      },
    ];
    if (changes.email !== undefined && changes.email !== current.email) {
      items.push({
        Put: { TableName: this.table, Item: mainItems.email(changes.email, next.id), ConditionExpression: 'attribute_not_exists(pk)' },
      });
      if (current.email) items.push({ Delete: { TableName: this.table, Key: emailKey(current.email) } });
    }
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`user ${current.id} changed or email taken`);
      throw error;
    }
    return next;
  }

  /**
   * Deletes the user and the email item first (sign-in stops at once), then the user's
   * environment grants. Sessions, refresh tokens and API keys live elsewhere and are
   * removed by their own repositories.
   */
  async delete(user: User): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table, Key: userKey(user.id) } },
          ...(user.email ? [{ Delete: { TableName: this.table, Key: emailKey(user.email) } }] : []),
        ],
      }),
    );
    await deleteQueried(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :env)',
      ExpressionAttributeValues: { ':pk': partitions.user(user.id), ':env': partitions.environmentGrantPrefix },
    });
  }
}
