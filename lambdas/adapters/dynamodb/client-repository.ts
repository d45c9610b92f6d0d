import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { maxReadsPerPage } from '../../core/admin/filtered-pages';
import type { CatalogCheck, ClientChanges, ScopeHolders } from '../../core/admin/ports';
import { ConflictError, ScopeCatalogChangedError } from '../../core/errors';
import type { AdminAuditEntry, Client, RegistrationType } from '../../core/model';
import { backoff, retry, tryAgain } from '../../core/retry';
import { auditLogItem, auditTableOf } from './audit-log';
import { allClientCopyKeys, clientCopyItems, randomClientCopy } from './client-copies';
import { putNew } from './conditional-writes';
import { cancellationCodes, isTransactionConflict, keyFits, live, withoutKeys, type TransactItem } from './items';
import { queryIndexRead, queryPages, type ListRead } from './pages';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import * as partitions from './keys/partitions';

type Item = Record<string, unknown>;

/** The client an item holds; an unused dynamic client past its expiry, or a blocked one, is absent. */
export function clientFromItem(item: Item | undefined, nowEpoch: number): Client | undefined {
  const current = live(item, nowEpoch);
  return current && !current.blocked ? withoutKeys<Client>(current) : undefined;
}

/** A record to change is absent: never created, deleted, blocked, or an unused dynamic client past its expiry. */
const absent = Symbol('absent');

type ReadBounds = { readonly reads: number; readonly perRead?: number };

/** Behaviour DASH-16: an environment's or a scope's confirmation page makes at most 10 reads (DynamoDB's pages of up to 1 MB) of the client lists. */
const confirmationReadBounds: ReadBounds = { reads: maxReadsPerPage };

/**
 * The last item of a write that grants scopes an admin checked: the catalog still has the
 * version the check read, so no scope was deleted since (behaviour ADMIN-18).
 */
export function catalogUnchanged(table: string, catalog: CatalogCheck): TransactItem {
  return {
    ConditionCheck: {
      TableName: table,
      Key: keys.scopeCatalogVersion(),
      ...(catalog.catalogVersion === undefined
        ? { ConditionExpression: 'attribute_not_exists(version)' }
        : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': catalog.catalogVersion } }),
    },
  };
}

/** Whether a cancelled transaction that ended with `catalogUnchanged` failed on it. */
export function catalogChanged(error: unknown, catalog: CatalogCheck | undefined): boolean {
  return catalog !== undefined && cancellationCodes(error).at(-1) === 'ConditionalCheckFailed';
}

/**
 * Clients in the main table: the record under `CLIENT#<clientId>`, listed per registration type
 * via gsi1, and its read-sharded copies (client-copies.ts). Every write replaces the record
 * and all its copies in one transaction, so a copy never disagrees with the record once the
 * write returned, and a failed write leaves every one as it was.
 */
export class DynamoClientRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly nowEpoch: () => number = () => Math.floor(Date.now() / 1000),
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  /** The audit entry's Put (and its key, to undo it with a failed create), when the change has one. */
  private audited(audit: AdminAuditEntry | undefined): { put: TransactItem[]; key?: { pk: unknown; sk: unknown } } {
    if (!audit) return { put: [] };
    const item = auditLogItem(audit, randomUUID());
    return { put: [{ Put: { TableName: auditTableOf(this.activityTable), Item: item } }], key: { pk: item.pk, sk: item.sk } };
  }

  /**
   * Strongly consistent, so a deletion that returned is seen by the very next request in any
   * container. An unused dynamic client past its expiry is absent, even before TTL deletes it.
   */
  async get(clientId: string): Promise<Client | undefined> {
    return clientFromItem(await this.readAnyCopy(clientId), this.nowEpoch());
  }

  /** A metadata-document client, or 'blocked' when an admin deleted it (its document must not bring it back). */
  async getMetadataDocumentClient(url: string): Promise<Client | 'blocked' | undefined> {
    const found = await this.readAnyCopy(url);
    if (found?.blocked) return 'blocked';
    const item = live(found, this.nowEpoch());
    return item ? withoutKeys<Client>(item) : undefined;
  }

  /** One strongly consistent read of a copy picked at random: every write writes all of them (client-copies.ts). */
  private async readAnyCopy(clientId: string): Promise<Item | undefined> {
    if (!keyFits(keys.client(clientId).pk)) return undefined;
    return this.read(keys.clientCopy(clientId, randomClientCopy()));
  }

  private async read(Key: { pk: string; sk: string }): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key, ConsistentRead: true }));
    return Item;
  }

  /**
   * `expiresAtEpoch`: a dynamic client that is never used disappears then (TTL), every copy with
   * it. `audit`: written in the same transaction (behaviour LOG-9). `catalog`: the admin's check of
   * the client's scopes; ScopeCatalogChangedError (nothing written) when a scope was deleted since.
   */
  async create(client: Client, expiresAtEpoch?: number, audit?: AdminAuditEntry, catalog?: CatalogCheck): Promise<void> {
    const writeToken = randomUUID();
    const entry = this.audited(audit);
    const record: Item = {
      ...mainItems.client(client),
      ...(expiresAtEpoch !== undefined ? { ttl: expiresAtEpoch, expiresUnused: true } : {}),
      revision: randomUUID(),
      writeToken,
    };
    const [first, ...copies] = clientCopyItems(record, client.clientId);
    try {
      await putNew(
        this.db,
        this.table,
        first!,
        [
          ...copies.map((Item): TransactItem => ({ Put: { TableName: this.table, Item } })),
          ...entry.put,
          // Last: catalogChanged reads the last cancellation reason.
          ...(catalog ? [catalogUnchanged(this.table, catalog)] : []),
        ],
        writeToken,
      );
    } catch (error) {
      if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') throw new ConflictError(`client ${client.clientId}`);
      if (catalogChanged(error, catalog)) throw new ScopeCatalogChangedError();
      // Unconfirmed: the write may have landed with every reply lost. The caller is refused and
      // never learns the client id, so take back what this request wrote, if anything: all the
      // copies when the record holds this request's token, else nothing.
      await this.db
        .send(
          new TransactWriteCommand({
            TransactItems: [
              ...allClientCopyKeys(client.clientId).map(
                (Key, copy): TransactItem => ({
                  Delete: {
                    TableName: this.table,
                    Key,
                    ...(copy === 0
                      ? { ConditionExpression: 'writeToken = :token', ExpressionAttributeValues: { ':token': writeToken } }
                      : {}),
                  },
                }),
              ),
              // The entry went with the client, so it goes with it too: no entry for a client that is not there.
              ...(entry.key ? [{ Delete: { TableName: auditTableOf(this.activityTable), Key: entry.key } }] : []),
            ],
          }),
        )
        .catch(() => undefined); // the write's own error is the one to report
      throw error;
    }
  }

  /** Creates or replaces a client known by its metadata document URL (refreshed from the document). */
  async saveMetadataDocumentClient(client: Client): Promise<void> {
    const record = { ...mainItems.client(client), revision: randomUUID() };
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: clientCopyItems(record, client.clientId).map((Item): TransactItem => ({ Put: { TableName: this.table, Item } })),
      }),
    );
  }

  /** First successful use of a dynamic client: it no longer expires. Written only while the expiry is set. */
  async markUsed(clientId: string): Promise<void> {
    await this.rewrite(clientId, (record) => {
      if (record.ttl === undefined) return undefined;
      const { ttl: _ttl, expiresUnused: _expiresUnused, ...kept } = record;
      return kept;
    });
  }

  /** Newest first: the list's sort key starts with createdAt (behaviour ADMIN-21). */
  list(registrationType: RegistrationType, limit: number, cursor?: string): Promise<ListRead<Client>> {
    return queryIndexRead<Client>(this.db, this.table, partitions.clients(registrationType), limit, cursor, undefined, true);
  }

  /**
   * Sets the name, the granted scopes and/or introspectAll on the record and every copy. Returns
   * the record before and after, so the caller knows exactly which scopes this write ungranted
   * (behaviour KEY-12: they are then removed from the client's API keys).
   */
  async update(
    clientId: string,
    changes: ClientChanges,
    /** The audit entry of this change, from the record as read and as written (behaviour LOG-9). */
    audit?: (before: Client, after: Client) => AdminAuditEntry,
    catalog?: CatalogCheck,
  ): Promise<{ before: Client; after: Client } | undefined> {
    // Only the fields given: a key present with undefined must not erase the stored value.
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined && value !== null));
    // null clears a field (refreshGraceSeconds: back to the server's setting).
    const cleared = Object.keys(changes).filter((name) => changes[name as keyof ClientChanges] === null);
    if (Object.keys(given).length === 0 && cleared.length === 0) {
      const current = await this.get(clientId);
      return current ? { before: current, after: current } : undefined;
    }
    const result = await this.rewrite(
      clientId,
      (record) => {
        const next: Item = { ...record, ...given };
        for (const name of cleared) delete next[name];
        return next;
      },
      audit && ((before, after) => audit(withoutKeys<Client>(before), withoutKeys<Client>(after))),
      catalog,
    );
    if (result === absent) return undefined;
    return { before: withoutKeys<Client>(result.before), after: withoutKeys<Client>(result.after) };
  }

  /**
   * Behaviour ADMIN-20: the replaced secret is the one this write read, under the same revision
   * condition as every change, so two rotations at once never leave a third secret alive nor
   * lose the newer one; a rotation during an overlap drops the older previous secret.
   */
  async rotateSecret(
    clientId: string,
    secretHash: string,
    previousExpiresAtEpoch: number | undefined,
    audit: AdminAuditEntry,
  ): Promise<Client | undefined> {
    const result = await this.rewrite(
      clientId,
      (record) => {
        if (typeof record.secretHash !== 'string') return undefined;
        const { previousSecretHash: _dropped, previousSecretExpiresAtEpoch: _ends, ...rest } = record;
        return {
          ...rest,
          secretHash,
          ...(previousExpiresAtEpoch === undefined
            ? {}
            : { previousSecretHash: record.secretHash, previousSecretExpiresAtEpoch: previousExpiresAtEpoch }),
        };
      },
      () => audit,
    );
    if (result === absent || result.after === result.before) return undefined;
    return withoutKeys<Client>(result.after);
  }

  /**
   * Reads the record, then writes `change(record)` to the record and every copy in one
   * transaction, on the condition that the record's `revision` is still the one read (a
   * random id each write sets), so two concurrent changes cannot lose one another's fields and
   * every copy ends equal to the record. `change` answering undefined writes nothing. With
   * `catalog`, also on the scope catalog being unchanged since that check (else
   * ScopeCatalogChangedError: re-reading the record would not help, the scopes must be checked again).
   */
  private async rewrite(
    clientId: string,
    change: (record: Item) => Item | undefined,
    audit?: (before: Item, after: Item) => AdminAuditEntry,
    catalog?: CatalogCheck,
  ): Promise<{ before: Item; after: Item } | typeof absent> {
    if (!keyFits(keys.client(clientId).pk)) return absent;
    const outcome = await retry(
      async () => {
        const before = await this.read(keys.client(clientId));
        if (!before || !clientFromItem(before, this.nowEpoch())) return absent;
        const changed = change(before);
        if (!changed) return { before, after: before };
        const after = { ...changed, revision: randomUUID() };
        const condition =
          before.revision === undefined
            ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revision)' }
            : { ConditionExpression: 'revision = :seen', ExpressionAttributeValues: { ':seen': before.revision } };
        try {
          await this.db.send(
            new TransactWriteCommand({
              ClientRequestToken: randomUUID(),
              TransactItems: [
                ...clientCopyItems(after, clientId).map(
                  (Item, copy): TransactItem => ({ Put: { TableName: this.table, Item, ...(copy === 0 ? condition : {}) } }),
                ),
                ...this.audited(audit?.(before, after)).put,
                // Last: catalogChanged reads the last cancellation reason.
                ...(catalog ? [catalogUnchanged(this.table, catalog)] : []),
              ],
            }),
          );
          return { before, after };
        } catch (error) {
          if (catalogChanged(error, catalog)) throw new ScopeCatalogChangedError();
          // Changed since it was read, or another transaction held an item: nothing written, read again.
          const codes = cancellationCodes(error);
          if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return tryAgain;
          throw error;
        }
      },
      { attempts: 6, delayMs: backoff(10) },
    );
    if (outcome === undefined) throw new Error(`client ${clientId} kept changing while its copies were written`);
    return outcome;
  }

  /**
   * The listed records (static, then dynamic) that match `filter`, page by page: an admin-only
   * read of the two gsi1 lists. Only the record (copy 0) carries the list attributes
   * (client-copies.ts), so each client appears once, and a metadata-document tombstone (no list
   * attributes) never.
   */
  private async *listedRecords(filter: {
    readonly expression: string;
    readonly values: Record<string, unknown>;
    readonly projection: string;
  }): AsyncGenerator<Item[]> {
    for (const registrationType of ['static', 'dynamic'] as const) {
      yield* queryPages(this.db, {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: filter.expression,
        ExpressionAttributeValues: { ':pk': partitions.clients(registrationType), ...filter.values },
        ProjectionExpression: filter.projection,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
      });
    }
  }

  /** Whether any client (static or dynamic) is placed in the environment. */
  async anyInEnvironment(environmentId: string): Promise<boolean> {
    const pages = this.listedRecords({ expression: 'environmentId = :env', values: { ':env': environmentId }, projection: 'pk, #ttl' });
    for await (const page of pages) if (page.length > 0) return true;
    return false;
  }

  /**
   * The listed clients in the environment, as anyInEnvironment sees them, for a confirmation page
   * (behaviour DASH-16): it stops at the first `sampleSize + 1` and after `bounds.reads` reads (of
   * `bounds.perRead` records, else a DynamoDB page), `more` saying it stopped early. Self-registration fills the dynamic
   * list, so reading it whole on every GET would cost what any stranger chose; the deletion itself
   * still reads everything (anyInEnvironment).
   */
  async inEnvironment(environmentId: string, sampleSize: number, bounds: ReadBounds = confirmationReadBounds): Promise<ScopeHolders> {
    return this.firstListed({ expression: 'environmentId = :env', values: { ':env': environmentId }, liveOnly: false }, sampleSize, bounds);
  }

  /**
   * The clients granted `scope`, as holdersOfScope sees them, for the scope's confirmation page
   * (behaviour DASH-16): bounded as inEnvironment is, since open registration fills the dynamic
   * list; the deletion itself still reads everything (holdersOfScope).
   */
  async firstHoldersOfScope(scope: string, sampleSize: number, bounds: ReadBounds = confirmationReadBounds): Promise<ScopeHolders> {
    return this.firstListed({ expression: 'contains(scopes, :scope)', values: { ':scope': scope }, liveOnly: true }, sampleSize, bounds);
  }

  /**
   * The listed clients matching `filter`, stopping past `sampleSize` or after `bounds.reads` reads
   * with `more`; `liveOnly` leaves out what the full read it stands for leaves out.
   */
  private async firstListed(
    filter: { readonly expression: string; readonly values: Record<string, unknown>; readonly liveOnly: boolean },
    sampleSize: number,
    bounds: ReadBounds,
  ): Promise<ScopeHolders> {
    const nowEpoch = this.nowEpoch();
    let count = 0;
    let reads = 0;
    const sample: string[] = [];
    for (const registrationType of ['static', 'dynamic'] as const) {
      let start: Record<string, unknown> | undefined;
      do {
        if (reads >= bounds.reads) return { count, sample, more: true };
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.table,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            FilterExpression: filter.expression,
            ExpressionAttributeValues: { ':pk': partitions.clients(registrationType), ...filter.values },
            ProjectionExpression: 'clientId, #ttl',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ...(bounds.perRead ? { Limit: bounds.perRead } : {}),
            ExclusiveStartKey: start,
          }),
        );
        reads += 1;
        for (const item of page.Items ?? []) {
          if (filter.liveOnly && !live(item, nowEpoch)) continue;
          count += 1;
          if (count > sampleSize) return { count, sample, more: true };
          sample.push(String(item.clientId));
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }
    return { count, sample };
  }

  /** The clients granted `scope`; an unused dynamic client past its expiry is left out, as `get` leaves it out. */
  async holdersOfScope(scope: string, sampleSize: number): Promise<{ count: number; sample: string[] }> {
    const nowEpoch = this.nowEpoch();
    let count = 0;
    const sample: string[] = [];
    const pages = this.listedRecords({ expression: 'contains(scopes, :scope)', values: { ':scope': scope }, projection: 'clientId, #ttl' });
    for await (const page of pages) {
      for (const item of page) {
        if (!live(item, nowEpoch)) continue;
        count += 1;
        if (sample.length < sampleSize) sample.push(String(item.clientId));
      }
    }
    return { count, sample };
  }

  /**
   * Deletes a client and every copy in one transaction. A client named by a metadata document
   * URL is replaced by a tombstone instead (record and copies): its document would otherwise
   * recreate it on the next request. True when a client was there (not already a tombstone).
   */
  async delete(clientId: string, audit?: AdminAuditEntry): Promise<boolean> {
    if (!keyFits(keys.client(clientId).pk)) return false;
    const tombstone = /^https?:\/\//.test(clientId)
      ? { clientId, blocked: true, blockedAt: new Date(this.nowEpoch() * 1000).toISOString() }
      : undefined;
    const removal = (condition: boolean) =>
      new TransactWriteCommand({
        // A resend after a lost reply is applied once and answers success, not "already gone".
        ClientRequestToken: randomUUID(),
        TransactItems: [
          ...allClientCopyKeys(clientId).map((Key, copy): TransactItem => {
            const guard = copy === 0 && condition ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(blocked)' } : {};
            return tombstone
              ? { Put: { TableName: this.table, Item: { ...tombstone, ...Key }, ...guard } }
              : { Delete: { TableName: this.table, Key, ...guard } };
          }),
          // Only with the deletion of a client that was there, not with a tombstone written for none.
          ...(condition ? this.audited(audit).put : []),
        ],
      });
    const done = await retry(
      async () => {
        try {
          await this.db.send(removal(true));
          return true;
        } catch (error) {
          if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') {
            // No client: a tombstone is still written, so a document cannot bring the URL back.
            if (tombstone) await this.db.send(removal(false));
            return false;
          }
          if (isTransactionConflict(error)) return tryAgain;
          throw error;
        }
      },
      { attempts: 6, delayMs: backoff(10) },
    );
    if (done === undefined) throw new Error(`client ${clientId}: deletion kept conflicting with other writes`);
    return done;
  }
}
