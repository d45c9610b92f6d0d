import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { AdminDirectory, AdminRecipient, UserChanges } from '../../core/admin/ports';
import type { AdminAuditEntry, User } from '../../core/model';
import { auditPut, auditTableOf } from './audit-log';
import { isConditionFailure, type TransactItem, withoutKeys } from './items';
import { deleteQueried, gsi1Query, type ListRead, prefixQuery, queryIndexRead } from './pages';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import * as partitions from './keys/partitions';

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
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  /** The audit entry's Put, when the change has one. */
  private audited(audit: AdminAuditEntry | undefined): TransactItem[] {
    return audit ? [auditPut(auditTableOf(this.activityTable), audit)] : [];
  }

  async get(id: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: userKey(id) }));
    return Item ? withoutKeys<User>(Item) : undefined;
  }

  /**
   * The user as stored now (strongly consistent): what a session, code or refresh token is held
   * against on use, so a password change a moment ago counts (behaviour RESET-12).
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

  async create(user: User, audit?: AdminAuditEntry): Promise<void> {
    const items: TransactItem[] = [
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
    items.push(...this.audited(audit));
    try {
      // The token makes the DynamoDB client's resend after a lost reply a success, not a conflict with itself.
      await this.db.send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`email ${user.email ?? ''}`);
      throw error;
    }
  }

  /** Newest first: the list's sort key starts with createdAt (behaviour ADMIN-21). */
  list(limit: number, cursor?: string): Promise<ListRead<User>> {
    return queryIndexRead<User>(this.db, this.table, partitions.users, limit, cursor, undefined, true);
  }

  /**
   * A read of the environment's grants (sorted by user id), then each user, with the cursor after
   * its grant; a grant whose user is gone is left out.
   */
  async listInEnvironment(environmentId: string, limit: number, cursor?: string): Promise<ListRead<User>> {
    const grants = await queryIndexRead<{ userId: string }>(
      this.db,
      this.table,
      partitions.usersOfEnvironment(environmentId),
      limit,
      cursor,
    );
    const users = await Promise.all(grants.entries.map(async ({ item, after }) => ({ item: await this.get(item.userId), after })));
    return {
      entries: users.filter((entry): entry is { item: User; after: string } => entry.item !== undefined),
      ...(grants.next ? { next: grants.next } : {}),
    };
  }

  /**
   * Behaviour ADMIN-25: the user list (`USERS` on gsi1, oldest first) with a filter on `admin`,
   * page by page, until a limit or the list's end; no index of admins to keep right on every
   * user change, for a rare admin call.
   */
  async admins(limits: Parameters<AdminDirectory['admins']>[0]): ReturnType<AdminDirectory['admins']> {
    const admins: AdminRecipient[] = [];
    let read = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const query = gsi1Query(this.table, partitions.users);
      const page = await this.db.send(
        new QueryCommand({
          ...query,
          // Limit counts the users read before the filter, so it bounds the read units too.
          Limit: Math.min(1000, limits.usersRead - read),
          FilterExpression: '#admin = :yes',
          ExpressionAttributeNames: { '#admin': 'admin', '#name': 'name' },
          ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':yes': true },
          ProjectionExpression: 'id, email, #name',
          ExclusiveStartKey: start,
        }),
      );
      read += page.ScannedCount ?? 0;
      for (const item of page.Items ?? []) {
        admins.push({ id: String(item.id), name: String(item.name ?? ''), ...(item.email ? { email: String(item.email) } : {}) });
      }
      start = page.LastEvaluatedKey;
    } while (start && read < limits.usersRead && admins.length < limits.admins);
    return { admins: admins.slice(0, limits.admins), complete: !start && admins.length <= limits.admins };
  }

  /** Applies changes; an email change moves the uniqueness item in the same transaction. */
  async update(current: User, changes: UserChanges, updatedAt: string, audit?: AdminAuditEntry): Promise<User> {
    const next: User = { ...current, ...changes, updatedAt };
    const items: TransactItem[] = [
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
    items.push(...this.audited(audit));
    try {
      await this.db.send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`user ${current.id} changed or email taken`);
      throw error;
    }
    return next;
  }

  /**
   * Behaviour ADMIN-7: the environment grants first, then the user, its email item and the
   * `user.delete` audit entry in one transaction. A failure before that transaction leaves the
   * user in place, so a retried DELETE finds it and finishes; the other order left grants
   * behind a 404. Sessions, refresh tokens, passkeys and API keys live elsewhere and are
   * removed by their own stores before this (lambdas/core/admin/users.ts `deleteUser`).
   */
  async delete(user: User, audit?: AdminAuditEntry): Promise<void> {
    await deleteQueried(this.db, prefixQuery(this.table, partitions.user(user.id), partitions.environmentGrantPrefix));
    await this.db.send(
      new TransactWriteCommand({
        // A resend after a lost reply is applied once: one audit entry per deletion.
        ClientRequestToken: randomUUID(),
        TransactItems: [
          { Delete: { TableName: this.table, Key: userKey(user.id) } },
          ...(user.email ? [{ Delete: { TableName: this.table, Key: emailKey(user.email) } }] : []),
          ...this.audited(audit),
        ],
      }),
    );
  }
}
