/**
 * Trusted issuers in the main table (docs/storage-schema.md): the record at the key its profile
 * is looked up by (`TRUST#<environment>#<sha256(issuer)>` for id-jag, `TRUSTWORKLOAD#<sha256(issuer)>`
 * for workload), so the token path reads it with one strongly consistent GetItem and a second
 * trust of one issuer is refused by the key itself (behaviour TRUST-2); a pointer `TRUSTID#<id>`
 * for the admin API, which names it by id; listed through gsi1 `TRUSTEDISSUERS`, newest first.
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CatalogCheck, ScopeHolders } from '../../core/admin/ports';
import { ConflictError, ScopeCatalogChangedError } from '../../core/errors';
import type { AdminAuditEntry } from '../../core/model';
import type { TrustedIssuer } from '../../core/trusted-issuers/model';
import type { TrustedIssuerStore } from '../../core/admin/ports';
import { auditPut, auditTableOf } from './audit-log';
import { catalogChanged, catalogUnchanged } from './client-repository';
import { putNew } from './conditional-writes';
import { cancellationCodes, isConditionFailure, withoutKeys } from './items';
import { gsi1Query, type Page, queryIndexPage, queryPages } from './pages';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import * as partitions from './keys/partitions';

type Item = Record<string, unknown>;

const recordKey = (trusted: Pick<TrustedIssuer, 'profile' | 'environmentId' | 'issuer'>) =>
  trusted.profile === 'workload' ? keys.workloadIssuer(trusted.issuer) : keys.trustedIssuer(trusted.environmentId, trusted.issuer);

export class DynamoTrustedIssuerStore implements TrustedIssuerStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The activity table, where a change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  private async read(key: { pk: string; sk: string }): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return Item;
  }

  async idJagIssuer(environmentId: string, issuer: string): Promise<TrustedIssuer | undefined> {
    const item = await this.read(keys.trustedIssuer(environmentId, issuer));
    return item ? withoutKeys<TrustedIssuer>(item) : undefined;
  }

  async workloadIssuer(issuer: string): Promise<TrustedIssuer | undefined> {
    const item = await this.read(keys.workloadIssuer(issuer));
    return item ? withoutKeys<TrustedIssuer>(item) : undefined;
  }

  /**
   * The record and its pointer are created together or not at all, with the entry (behaviour
   * LOG-9), on the condition that the environment exists (a trust racing the environment's
   * deletion lands before it, and holds the deletion back, TRUST-8, or not at all) and, given
   * `catalog`, that no scope was deleted since its rules' scopes were checked (ADMIN-18).
   */
  async create(trusted: TrustedIssuer, audit: AdminAuditEntry, catalog?: CatalogCheck): Promise<boolean> {
    try {
      await putNew(this.db, this.table, mainItems.trustedIssuer(trusted, randomUUID()), [
        { Put: { TableName: this.table, Item: mainItems.trustedIssuerPointer(trusted), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          ConditionCheck: {
            TableName: this.table,
            Key: keys.environment(trusted.environmentId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        auditPut(auditTableOf(this.activityTable), audit),
        // Last: catalogChanged reads the last cancellation reason.
        ...(catalog ? [catalogUnchanged(this.table, catalog)] : []),
      ]);
      return true;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed') throw new ConflictError(`trusted issuer ${trusted.issuer}`);
      if (codes[2] === 'ConditionalCheckFailed') return false;
      if (catalogChanged(error, catalog)) throw new ScopeCatalogChangedError();
      throw error;
    }
  }

  async get(trustedIssuerId: string): Promise<TrustedIssuer | undefined> {
    const found = await this.readById(trustedIssuerId);
    return found ? withoutKeys<TrustedIssuer>(found) : undefined;
  }

  /** The record a pointer names, only while it is still that id's (a record replaced under the same key is another's). */
  private async readById(trustedIssuerId: string): Promise<Item | undefined> {
    const pointer = await this.read(keys.trustedIssuerById(trustedIssuerId));
    if (!pointer) return undefined;
    const item = await this.read(recordKey(pointer as unknown as TrustedIssuer));
    return item?.trustedIssuerId === trustedIssuerId ? item : undefined;
  }

  list(limit: number, cursor?: string): Promise<Page<TrustedIssuer>> {
    return queryIndexPage<TrustedIssuer>(this.db, this.table, partitions.trustedIssuers, limit, cursor, undefined, true);
  }

  /**
   * Replaces the record on the condition that it is still the one `current` was read from (its
   * revision, read here), with the entry; false when it changed or went in between. Given
   * `catalog`, throws ScopeCatalogChangedError when a scope was deleted since that check.
   */
  async update(current: TrustedIssuer, next: TrustedIssuer, audit: AdminAuditEntry, catalog?: CatalogCheck): Promise<boolean> {
    const stored = await this.readById(current.trustedIssuerId);
    if (!stored || !sameRecord(withoutKeys<TrustedIssuer>(stored), current)) return false;
    try {
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: mainItems.trustedIssuer({ ...next, createdAt: current.createdAt }, randomUUID()),
                ConditionExpression: 'revision = :revision',
                ExpressionAttributeValues: { ':revision': stored.revision },
              },
            },
            auditPut(auditTableOf(this.activityTable), audit),
            // Last: catalogChanged reads the last cancellation reason.
            ...(catalog ? [catalogUnchanged(this.table, catalog)] : []),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (catalogChanged(error, catalog)) throw new ScopeCatalogChangedError();
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * The record (while it is still this id's), its pointer and the entry in one transaction. A
   * record already gone, or replaced under the same key by another id, leaves nothing to do.
   */
  async delete(trusted: TrustedIssuer, audit: AdminAuditEntry): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Delete: {
                TableName: this.table,
                Key: recordKey(trusted),
                ConditionExpression: 'trustedIssuerId = :id',
                ExpressionAttributeValues: { ':id': trusted.trustedIssuerId },
              },
            },
            { Delete: { TableName: this.table, Key: keys.trustedIssuerById(trusted.trustedIssuerId) } },
            auditPut(auditTableOf(this.activityTable), audit),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error) || cancellationCodes(error)[0] !== 'ConditionalCheckFailed') throw error;
    }
  }

  /**
   * The workload issuers whose rules give `scope` (behaviour ADMIN-18), read from the list, which
   * may lag a write of a moment before: such a rule's scope is left out at issuance.
   */
  async holdersOfScope(scope: string, sampleSize: number): Promise<ScopeHolders> {
    let count = 0;
    const sample: string[] = [];
    for await (const page of queryPages(this.db, gsi1Query(this.table, partitions.trustedIssuers))) {
      for (const item of page) {
        const rules = (item.rules ?? []) as readonly { readonly scopes: readonly string[] }[];
        if (!rules.some((rule) => rule.scopes.includes(scope))) continue;
        count++;
        if (sample.length < sampleSize) sample.push(String(item.trustedIssuerId));
      }
    }
    return { count, sample };
  }

  /** Trusted issuers are few (a handful per environment): the list is read through, stopping at the first of the environment. */
  async anyInEnvironment(environmentId: string): Promise<boolean> {
    const query = {
      ...gsi1Query(this.table, partitions.trustedIssuers),
      FilterExpression: 'environmentId = :environmentId',
      ExpressionAttributeValues: { ':pk': partitions.trustedIssuers, ':environmentId': environmentId },
    };
    for await (const page of queryPages(this.db, query)) if (page.length > 0) return true;
    return false;
  }
}

/** Whether two readings are of one stored state (the pointer's fields never change, so the rest decides). */
function sameRecord(a: TrustedIssuer, b: TrustedIssuer): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Item)
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([k, v]) => [k, sorted(v)]),
    );
  return value;
}
