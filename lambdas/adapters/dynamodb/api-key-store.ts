import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { ListRead } from '../../core/admin/ports';
import type { CreateOutcome, ExchangeRead, KeyBinding, KeyParties } from '../../core/api-keys/ports';
import { isUsersOwnKey, type ApiKey, type ApiKeyCreator, type AuditEntry, type User } from '../../core/model';
import { apiKeyTtl, isPending, pendingKeyItems, userKeyIndexItem } from './api-key-items';
import { auditLogItem } from './audit-log';
import type { PhysicalTableNames } from './client';
import { randomClientCopy } from './client-copies';
import { clientFromItem } from './client-repository';
import { DynamoEnvironmentRepository } from './environment-repository';
import { updateIfConditionHolds } from './conditional-writes';
import { cancellationCodes, isTransactionConflict, live, withoutKeys, type TransactItem } from './items';
import { gsi1Query, prefixQuery, queryAll, queryIndexRead, queryPages, queryPartitionRead } from './pages';
import { maxReadsPerPage } from '../../core/admin/filtered-pages';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { backoff, pause, retry, tryAgain } from '../../core/retry';

const clientKey = keys.client;
const userKey = keys.user;
const grantKey = keys.environmentGrant;
/**
 * The client (one of its read-sharded copies, client-copies.ts) and user records of a key, in
 * that order, then the user's environment grant and the environment when named (a grant counts
 * only for the environment it was made for, behaviour ENV-4).
 */
const partyKeys = (binding: KeyBinding, clientCopy: number) => [
  keys.clientCopy(binding.clientId, clientCopy),
  userKey(binding.userId),
  ...(binding.environmentId !== undefined
    ? [grantKey(binding.userId, binding.environmentId), keys.environment(binding.environmentId)]
    : []),
];

/**
 * A key record past its TTL (long after expiry or revocation) is absent, as if deleted; so is a
 * pending one (behaviour KEY-15: its create has not activated it, and may never).
 */
function keyFromItem(item: Record<string, unknown> | undefined, nowEpoch: number): ApiKey | undefined {
  const current = live(item, nowEpoch);
  return current && !isPending(current) ? withoutKeys<ApiKey>(current) : undefined;
}

/**
 * How many times an activation whose outcome is unknown (every attempt of the DynamoDB client
 * failed, and one may have landed) is sent again with the same request token before the create
 * answers 503: the resends turn an unknown outcome into a known one (behaviour KEY-15).
 */
const activationSends = 5;

/** A condition that the client still exists and grants every one of `scopes`. */
function clientGrants(table: string, clientId: string, scopes: readonly string[]): TransactItem {
  const values = Object.fromEntries(scopes.map((s, i) => [`:s${i}`, s]));
  return {
    ConditionCheck: {
      TableName: table,
      Key: clientKey(clientId),
      ConditionExpression: ['attribute_exists(pk)', ...scopes.map((_, i) => `contains(scopes, :s${i})`)].join(' AND '),
      ...(scopes.length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/**
 * API keys in the main table and their audit entries in the activity table; for the exchange,
 * the one consistent read of key, client and user, and the lastUsedAt stamp
 * (docs/storage-schema.md).
 */
export class DynamoApiKeyStore {
  /** keyId -> the latest lastUsedAt this container sent, and its write (bounded, oldest dropped first). */
  private readonly stampsSent = new Map<string, { readonly usedAt: string; readonly done: Promise<void> }>();

  private readonly environments: DynamoEnvironmentRepository;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: PhysicalTableNames,
    private readonly newRowId: () => string,
    private readonly nowEpoch: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.environments = new DynamoEnvironmentRepository(db, tables.main);
  }

  /** Strongly consistent: a revocation that committed is seen by the next exchange. */
  async get(keyId: string): Promise<ApiKey | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.main, Key: keys.apiKey(keyId), ConsistentRead: true }));
    return keyFromItem(Item, this.nowEpoch());
  }

  /**
   * Behaviour KEY-6, KEY-15: the key and its user index item, pending (absent to every reader,
   * removed by TTL unless activated), atomically; the transaction also checks the user still
   * exists and the client still grants the snapshot scopes. An error means its outcome is
   * unknown: at most a pending key is left, which nothing can use.
   */
  async writePending(key: ApiKey): Promise<CreateOutcome> {
    const { record, index } = pendingKeyItems(key);
    try {
      await this.db.send(
        new TransactWriteCommand({
          // The DynamoDB client's resend after a lost reply is applied once, not refused as 'id-taken'.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            { Put: { TableName: this.tables.main, Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: this.tables.main, Item: index } },
            { ConditionCheck: { TableName: this.tables.main, Key: userKey(key.userId), ConditionExpression: 'attribute_exists(pk)' } },
            clientGrants(this.tables.main, key.clientId, key.scopes),
          ],
        }),
      );
      return 'created';
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed') return 'id-taken';
      if (codes[2] === 'ConditionalCheckFailed') return 'user-gone';
      if (codes[3] === 'ConditionalCheckFailed') return 'client-changed';
      throw error;
    }
  }

  /**
   * Behaviour KEY-6, KEY-15: pending → active, with the `api_key.create` audit entry and the same
   * checks of user and client, atomically; the only write after which the create shows the
   * secret. When every attempt of the DynamoDB client fails (one may have landed), the same
   * transaction, with the same request token, is sent again: DynamoDB answers a resend of a
   * landed transaction as the first, and a resend refused because the key is no longer pending
   * is recognised by the token the activation stored. So the answer follows what was stored;
   * only a database that loses every reply for all `activationSends` leaves it unknown.
   */
  async activate(key: ApiKey, audit: AuditEntry): Promise<CreateOutcome> {
    const token = randomUUID();
    const ttl = apiKeyTtl(key);
    const input = {
      ClientRequestToken: token,
      TransactItems: [
        {
          Update: {
            TableName: this.tables.main,
            Key: keys.apiKey(key.keyId),
            UpdateExpression: `SET writeToken = :token${ttl !== undefined ? ', #ttl = :ttl REMOVE pending' : ' REMOVE pending, #ttl'}`,
            ConditionExpression: 'attribute_exists(pending) AND attribute_not_exists(revokedAt)',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':token': token, ...(ttl !== undefined ? { ':ttl': ttl } : {}) },
          },
        },
        { Put: { TableName: this.tables.main, Item: userKeyIndexItem(key) } },
        { ConditionCheck: { TableName: this.tables.main, Key: userKey(key.userId), ConditionExpression: 'attribute_exists(pk)' } },
        clientGrants(this.tables.main, key.clientId, key.scopes),
        { Put: { TableName: this.tables.activity, Item: auditLogItem(audit, this.newRowId()) } },
      ] satisfies TransactItem[],
    };
    for (let send = 1; ; send++) {
      try {
        await this.db.send(new TransactWriteCommand(input));
        return 'created';
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes[2] === 'ConditionalCheckFailed') return 'user-gone';
        if (codes[3] === 'ConditionalCheckFailed') return 'client-changed';
        // No longer pending: this activation's own earlier send, or a deletion with the user.
        if (codes[0] === 'ConditionalCheckFailed') return (await this.activatedWith(key.keyId, token)) ? 'created' : 'user-gone';
        if (send >= activationSends) throw error;
        await pause(backoff(50)(send - 1));
      }
    }
  }

  private async activatedWith(keyId: string, token: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.main, Key: keys.apiKey(keyId), ConsistentRead: true }));
    return Item !== undefined && !isPending(Item) && Item.writeToken === token;
  }

  /**
   * Sets revokedAt (only once: the first timestamp is kept) with the audit entry, atomically. A
   * pending key (behaviour KEY-14: its notice could not be delivered) leaves `pending` for
   * `revoked`, so it is listed as such and its activation can never succeed. The DynamoDB client
   * gives the transaction a ClientRequestToken once per call, so its resend after a lost reply is
   * answered as the first (true, one audit entry), not refused as already revoked (behaviour ERR-5).
   */
  async revoke(key: ApiKey, revokedAt: string, audit: AuditEntry): Promise<boolean> {
    const revoked: ApiKey = { ...key, revokedAt };
    const ttl = apiKeyTtl(revoked)!;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tables.main,
                Key: keys.apiKey(key.keyId),
                UpdateExpression: 'SET revokedAt = :at, #ttl = :ttl REMOVE pending',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
                ExpressionAttributeNames: { '#ttl': 'ttl' },
                ExpressionAttributeValues: { ':at': revokedAt, ':ttl': ttl },
              },
            },
            { Put: { TableName: this.tables.main, Item: userKeyIndexItem(revoked) } },
            { Put: { TableName: this.tables.activity, Item: auditLogItem(audit, this.newRowId()) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /** Newest first (behaviour ADMIN-23). Pending keys (behaviour KEY-15) are left out: their create has not answered with them. */
  async listByClient(clientId: string, limit: number, cursor?: string): Promise<ListRead<ApiKey>> {
    const page = await queryIndexRead<ApiKey & { pending?: true }>(
      this.db,
      this.tables.main,
      partitions.keysOfClient(clientId),
      limit,
      cursor,
      this.nowEpoch(),
      true,
    );
    return { ...page, entries: page.entries.filter(({ item }) => item.pending === undefined) };
  }

  /** A page of the user's index items for the client, newest first (behaviour ADMIN-23), then their key records (strongly consistent). */
  async listByClientAndUser(clientId: string, userId: string, limit: number, cursor?: string): Promise<ListRead<ApiKey>> {
    const page = await queryPartitionRead(
      this.db,
      this.tables.main,
      partitions.user(userId),
      partitions.apiKeysOfUserPrefix(clientId),
      limit,
      cursor,
      true,
    );
    const records = await this.recordsOfUserIndex(
      userId,
      page.entries.map(({ item }) => item),
    );
    // records[i] is the record of entries[i]: the key keeps the cursor after its index item.
    const entries = records
      .map((item, i) => ({ item, after: page.entries[i]!.after }))
      .filter((entry): entry is { item: ApiKey; after: string } => entry.item !== undefined);
    return { entries, ...(page.next ? { next: page.next } : {}) };
  }

  /**
   * Behaviour DASH-18: the user's keys across clients, newest first, at most `limit`: the index
   * items of the user's partition (sorted there by client first, so ordered here by their time),
   * read in at most 10 pages, then their records. `more` when some were left out or unread.
   */
  async listOfUser(userId: string, limit: number): Promise<{ readonly items: readonly ApiKey[]; readonly more: boolean }> {
    const index: Record<string, unknown>[] = [];
    let reads = 0;
    let unread = false;
    const query = {
      ...prefixQuery(this.tables.main, partitions.user(userId), partitions.apiKeysOfUserPrefix()),
      ProjectionExpression: 'sk, keyId',
    };
    for await (const page of queryPages(this.db, query)) {
      index.push(...page);
      reads += 1;
      if (reads >= maxReadsPerPage) {
        unread = true;
        break;
      }
    }
    // The sort key ends `<createdAt>#<keyId>` (byTime), whatever the client id holds.
    const createdAt = (item: Record<string, unknown>) => String(item.sk).split('#').slice(-2).join('#');
    const newest = index.sort((a, b) => (createdAt(a) < createdAt(b) ? 1 : createdAt(a) > createdAt(b) ? -1 : 0)).slice(0, limit);
    const items = (await this.recordsOfUserIndex(userId, newest)).filter((key): key is ApiKey => key !== undefined);
    return { items, more: unread || index.length > limit };
  }

  /**
   * The key records of a user's index items, strongly consistent (one BatchGetItem per 100), one
   * per item in its order: undefined where the key is gone, pending or another user's.
   */
  private async recordsOfUserIndex(userId: string, index: readonly Record<string, unknown>[]): Promise<(ApiKey | undefined)[]> {
    const records = await this.getConsistent(index.map((item) => keys.apiKey(String(item.keyId))));
    const now = this.nowEpoch();
    return records.map((item) => {
      const key = keyFromItem(item, now);
      return key?.userId === userId ? key : undefined;
    });
  }

  /** One round trip: the key, and with `bound` its client and user too (behaviour KEYX-5; see the exchange). */
  async readForExchange(keyId: string, bound?: KeyBinding): Promise<ExchangeRead> {
    if (!bound) return { key: await this.get(keyId) };
    const [key, ...parties] = await this.getConsistent([keys.apiKey(keyId), ...partyKeys(bound, randomClientCopy())]);
    return { key: keyFromItem(key, this.nowEpoch()), parties: await this.partiesFrom(bound, parties) };
  }

  async readParties(binding: KeyBinding): Promise<KeyParties> {
    return this.partiesFrom(binding, await this.getConsistent(partyKeys(binding, randomClientCopy())));
  }

  private async partiesFrom(binding: KeyBinding, [copyRead, user, grant]: (Record<string, unknown> | undefined)[]): Promise<KeyParties> {
    // A grant counts only for the environment it was made for (behaviour ENV-4).
    const environmentId = binding.environmentId;
    const granted = environmentId !== undefined && (await this.environments.grantGivesAccess(grant, environmentId));
    return {
      client: clientFromItem(copyRead, this.nowEpoch()),
      user: user && withoutKeys<User>(user),
      ...(environmentId !== undefined ? { environment: { id: environmentId, granted } } : {}),
    };
  }

  /**
   * Monotonic (a slower concurrent exchange never moves it back) and never recreates a key
   * that was deleted with its user. Concurrent exchanges of one key in this container that
   * all read the previous second send one write between them, not one each. A revocation's
   * transaction on the same item makes a plain write fail with TransactionConflict; that is
   * retried, briefly.
   */
  async stampLastUsed(keyId: string, usedAt: string): Promise<void> {
    const sent = this.stampsSent.get(keyId);
    // Another exchange here already stamps this second (or a later one): share its outcome.
    if (sent !== undefined && sent.usedAt >= usedAt) return sent.done;
    const done = this.sendStamp(keyId, usedAt);
    this.stampsSent.delete(keyId);
    this.stampsSent.set(keyId, { usedAt, done });
    if (this.stampsSent.size > 1000) this.stampsSent.delete(this.stampsSent.keys().next().value!);
    try {
      await done;
    } catch (error) {
      if (this.stampsSent.get(keyId)?.done === done) this.stampsSent.delete(keyId);
      throw error;
    }
  }

  private async sendStamp(keyId: string, usedAt: string): Promise<void> {
    await retry(
      async (attempt) => {
        try {
          // Refused: already this second or later, or the key is gone; either way done.
          await updateIfConditionHolds(this.db, {
            TableName: this.tables.main,
            Key: keys.apiKey(keyId),
            UpdateExpression: 'SET lastUsedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
            ExpressionAttributeValues: { ':at': usedAt },
          });
          return true;
        } catch (error) {
          if (!isTransactionConflict(error) || attempt >= 4) throw error;
          return tryAgain;
        }
      },
      { attempts: 5, delayMs: backoff(5) },
    );
  }

  /** Strongly consistent reads of `keys` (same table), in their order; absent items are undefined. */
  private async getConsistent(itemKeys: readonly Record<string, string>[]): Promise<(Record<string, unknown> | undefined)[]> {
    const found = new Map<string, Record<string, unknown>>();
    const id = (item: Record<string, unknown>) => `${String(item.pk)}\n${String(item.sk)}`;
    for (let i = 0; i < itemKeys.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = itemKeys.slice(i, i + 100);
      const done = await retry(
        async () => {
          const result: BatchGetCommandOutput = await this.db.send(
            new BatchGetCommand({ RequestItems: { [this.tables.main]: { Keys: pending, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[this.tables.main] ?? []) found.set(id(item), item);
          pending = result.UnprocessedKeys?.[this.tables.main]?.Keys;
          return pending?.length ? tryAgain : true;
        },
        { attempts: 5, delayMs: backoff(20) },
      );
      if (!done) throw new Error('DynamoDB left consistent reads unprocessed');
    }
    return itemKeys.map((key) => found.get(id(key)));
  }

  /**
   * Behaviour KEY-12: every key of the client keeps only the `granted` scopes. Optimistic per key
   * (the write expects the scopes it read), so it is idempotent
   * and safe to repeat. Keys written in the last moments may be missed by the index query;
   * the exchange's intersection with the client's scopes covers them.
   */
  async restrictKeysToScopes(clientId: string, granted: readonly string[]): Promise<void> {
    const items = await queryAll(this.db, gsi1Query(this.tables.main, partitions.keysOfClient(clientId)));
    await Promise.all(items.map((item) => this.restrictKey(String(item.keyId), granted)));
  }

  private async restrictKey(keyId: string, granted: readonly string[]): Promise<void> {
    const done = await retry(
      async () => {
        const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.main, Key: keys.apiKey(keyId), ConsistentRead: true }));
        if (!Item) return true;
        const scopes = (Item.scopes as string[]) ?? [];
        const kept = scopes.filter((s) => granted.includes(s));
        if (kept.length === scopes.length) return true;
        // Refused, or held by a transaction: changed since it was read, so read it again.
        try {
          const written = await updateIfConditionHolds(this.db, {
            TableName: this.tables.main,
            Key: keys.apiKey(keyId),
            UpdateExpression: 'SET scopes = :kept',
            ConditionExpression: 'scopes = :seen',
            ExpressionAttributeValues: { ':kept': kept, ':seen': scopes },
          });
          return written || tryAgain;
        } catch (error) {
          if (!isTransactionConflict(error)) throw error;
          return tryAgain;
        }
      },
      { attempts: 5, delayMs: () => 0 },
    );
    if (!done) throw new Error(`scopes of API key ${keyId} kept changing`);
  }

  /** Revokes every active key of a deleted client, each with its audit entry (core/admin/ports ApiKeyHooks). */
  async revokeKeysOfClient(
    clientId: string,
    revocation: { readonly at: string; readonly actor: ApiKeyCreator; readonly reason: string },
  ): Promise<void> {
    const items = await queryAll(this.db, {
      TableName: this.tables.main,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      // A pending key is no key yet (behaviour KEY-15): the client's deletion makes its activation fail instead.
      FilterExpression: 'attribute_not_exists(revokedAt) AND attribute_not_exists(pending)',
      ExpressionAttributeValues: { ':pk': partitions.keysOfClient(clientId) },
    });
    await Promise.all(
      items.map((item) => {
        const key = withoutKeys<ApiKey>(item);
        const audit: AuditEntry = {
          type: 'api_key.revoke',
          clientId,
          keyId: key.keyId,
          userId: key.userId,
          actor: revocation.actor,
          reason: revocation.reason,
          at: revocation.at,
        };
        return this.revoke(key, revocation.at, audit);
      }),
    );
  }

  /**
   * Behaviour RESET-13: every self-service key of the user not yet revoked, pending ones included
   * (a create in flight), found through the index items in the user's own partition, read
   * strongly consistently (never a lagging index), then their records, also strongly consistent.
   */
  async selfServiceKeysOf(userId: string): Promise<(ApiKey & { readonly pending?: true })[]> {
    const index = await queryAll(this.db, prefixQuery(this.tables.main, partitions.user(userId), partitions.apiKeysOfUserPrefix()));
    const records = await this.getConsistent(index.map((item) => keys.apiKey(String(item.keyId))));
    const now = this.nowEpoch();
    return records
      .map((item) => live(item, now))
      .filter((item): item is Record<string, unknown> => item !== undefined)
      .map((item) => withoutKeys<ApiKey & { pending?: true }>(item))
      .filter((key) => key.userId === userId && isUsersOwnKey(key) && key.revokedAt === undefined);
  }

  /** Deleting a user deletes that user's keys (behaviour KEY-9): record first, then its index item, so a retry finds what is left. */
  async deleteKeysOfUser(userId: string): Promise<void> {
    const index = await queryAll(this.db, prefixQuery(this.tables.main, partitions.user(userId), partitions.apiKeysOfUserPrefix(), false));
    await Promise.all(
      index.map(async (item) => {
        await this.db.send(new DeleteCommand({ TableName: this.tables.main, Key: keys.apiKey(String(item.keyId)) }));
        await this.db.send(new DeleteCommand({ TableName: this.tables.main, Key: { pk: item.pk, sk: item.sk } }));
      }),
    );
  }

  /** The admin audit entries of a client, oldest first (operators and tests). */
  async auditOf(clientId: string): Promise<AuditEntry[]> {
    const items = await queryAll(this.db, {
      TableName: this.tables.activity,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partitions.auditOf({ clientId }) },
    });
    return items.map((item) => withoutKeys<AuditEntry>(item));
  }
}
