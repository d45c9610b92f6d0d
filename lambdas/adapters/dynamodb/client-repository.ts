import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../core/errors';
import type { Client, RegistrationType } from '../../core/model';
import { isConditionFailure, isOwnWrite, keyFits, live, withoutKeys } from './items';
import { queryIndexPage, queryPages, type Page } from './pages';
import { keys, mainItems, partitions } from './keys';

/** The client an item holds; an unused dynamic client past its expiry, or a blocked one, is absent. */
export function clientFromItem(item: Record<string, unknown> | undefined, nowEpoch: number): Client | undefined {
  const current = live(item, nowEpoch);
  return current && !current.blocked ? withoutKeys<Client>(current) : undefined;
}

/** Clients in the main table: pk `CLIENT#<clientId>`, listed per registration type via gsi1. */
export class DynamoClientRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly nowEpoch: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /**
   * Strongly consistent, so a deletion that returned is seen by the very next request in any
   * container. An unused dynamic client past its expiry is absent, even before TTL deletes it.
   */
  async get(clientId: string): Promise<Client | undefined> {
    if (!keyFits(keys.client(clientId).pk)) return undefined;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.client(clientId), ConsistentRead: true }));
    return clientFromItem(Item, this.nowEpoch());
  }

  /** A metadata-document client, or 'blocked' when an admin deleted it (its document must not bring it back). */
  async getMetadataDocumentClient(url: string): Promise<Client | 'blocked' | undefined> {
    if (!keyFits(keys.client(url).pk)) return undefined;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.client(url), ConsistentRead: true }));
    if (Item?.blocked) return 'blocked';
    const item = live(Item, this.nowEpoch());
    return item ? withoutKeys<Client>(item) : undefined;
  }

  /** `expiresAtEpoch`: a dynamic client that is never used disappears then (TTL). */
  async create(client: Client, expiresAtEpoch?: number): Promise<void> {
    const writeToken = randomUUID();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...mainItems.client(client),
            ...(expiresAtEpoch !== undefined ? { ttl: expiresAtEpoch, expiresUnused: true } : {}),
            writeToken,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (isOwnWrite(error, writeToken)) return; // this request's own write, resent by the SDK
      if (isConditionFailure(error)) throw new ConflictError(`client ${client.clientId}`);
      // Unconfirmed: the write may have landed with every reply lost. The caller is refused and
      // never learns the client id, so take back what this request wrote, if anything.
      await this.db
        .send(
          new DeleteCommand({
            TableName: this.table,
            Key: keys.client(client.clientId),
            ConditionExpression: 'writeToken = :token',
            ExpressionAttributeValues: { ':token': writeToken },
          }),
        )
        .catch(() => undefined); // the write's own error is the one to report
      throw error;
    }
  }

  /** Creates or replaces a client known by its metadata document URL (refreshed from the document). */
  async saveMetadataDocumentClient(client: Client): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: mainItems.client(client) }));
  }

  /** First successful use of a dynamic client: it no longer expires. One write, only while the expiry is set. */
  async markUsed(clientId: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.client(clientId),
          UpdateExpression: 'REMOVE #ttl, expiresUnused',
          ConditionExpression: 'attribute_exists(#ttl)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  list(registrationType: RegistrationType, limit: number, cursor?: string): Promise<Page<Client>> {
    return queryIndexPage<Client>(this.db, this.table, partitions.clients(registrationType), limit, cursor);
  }

  /** Replaces the granted scopes; the caller narrows API keys (behaviour KEY-12). */
  async updateScopes(clientId: string, scopes: readonly string[]): Promise<Client | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.client(clientId),
          UpdateExpression: 'SET scopes = :scopes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':scopes': scopes },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutKeys<Client>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /**
   * Sets the name and/or the granted scopes in one conditional update. Returns the record
   * before and after, so the caller knows exactly which scopes this write ungranted
   * (behaviour KEY-12: they are then removed from the client's API keys).
   */
  async update(
    clientId: string,
    changes: {
      readonly name?: string;
      readonly scopes?: readonly string[];
      readonly introspectAll?: boolean;
      readonly redirectUris?: readonly string[];
    },
  ): Promise<{ before: Client; after: Client } | undefined> {
    const sets: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (changes.name !== undefined) {
      sets.push('#name = :name');
      names['#name'] = 'name';
      values[':name'] = changes.name;
    }
    if (changes.scopes !== undefined) {
      sets.push('scopes = :scopes');
      values[':scopes'] = changes.scopes;
    }
    if (changes.introspectAll !== undefined) {
      sets.push('introspectAll = :introspectAll');
      values[':introspectAll'] = changes.introspectAll;
    }
    if (changes.redirectUris !== undefined) {
      sets.push('redirectUris = :redirectUris');
      values[':redirectUris'] = changes.redirectUris;
    }
    if (sets.length === 0) {
      const current = await this.get(clientId);
      return current ? { before: current, after: current } : undefined;
    }
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.client(clientId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD',
        }),
      );
      const before = withoutKeys<Client>(Attributes!);
      return { before, after: { ...before, ...changes } };
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /** Whether any client (static or dynamic) is placed in the environment; an admin-only scan of the lists. */
  async anyInEnvironment(environmentId: string): Promise<boolean> {
    for (const registrationType of ['static', 'dynamic'] as const) {
      const pages = queryPages(this.db, {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: 'environmentId = :env',
        ExpressionAttributeValues: { ':pk': partitions.clients(registrationType), ':env': environmentId },
        ProjectionExpression: 'pk',
      });
      for await (const page of pages) if (page.length > 0) return true;
    }
    return false;
  }

  /**
   * Deletes a client. A client named by a metadata document URL is replaced by a tombstone
   * instead: its document would otherwise recreate it on the next request.
   */
  async delete(clientId: string): Promise<boolean> {
    const Key = keys.client(clientId);
    if (!keyFits(Key.pk)) return false;
    const { Attributes } = /^https?:\/\//.test(clientId)
      ? await this.db.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...Key, clientId, blocked: true, blockedAt: new Date(this.nowEpoch() * 1000).toISOString() },
            ReturnValues: 'ALL_OLD',
          }),
        )
      : await this.db.send(new DeleteCommand({ TableName: this.table, Key, ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined && !Attributes.blocked;
  }
}
