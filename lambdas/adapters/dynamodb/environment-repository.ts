import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { AdminAuditEntry, Environment } from '../../core/model';
import { auditPut, auditTableOf } from './audit-log';
import { putNew, transactIfConditionsHold } from './conditional-writes';
import { isConditionFailure, type TransactItem, withoutKeys } from './items';
import { deleteQueried, gsi1Query, type Page, prefixQuery, queryAll, queryIndexPage } from './pages';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import * as partitions from './keys/partitions';

const envKey = keys.environment;
const grantKey = keys.environmentGrant;

type Item = Record<string, unknown>;

/**
 * Whether a stored grant is one of this environment (behaviour ENV-4): the environment exists
 * and is the one the grant was made for. An environment deleted and created again under the same
 * id has a new `generation`, so a grant of the old one that outlived the deletion (the grant
 * sweep reads an index that can lag a grant written a moment before) gives nothing.
 */
export function grantHolds(grant: Item | undefined, environment: Item | undefined): boolean {
  return grant !== undefined && environment !== undefined && grant.generation === environment.generation;
}

/**
 * How long a container trusts an environment's generation it read. Every user token checks it,
 * and one item cannot serve more than 3,000 strongly consistent reads a second for all the
 * users of an environment; a grant that does not match the remembered one reads it again.
 */
export const environmentGenerationCacheMs = 10_000;

/** Environments, and their grants to users (`users_environments`, behaviour ADMIN-9). */
export class DynamoEnvironmentRepository {
  private readonly remembered = new Map<string, { readonly item: Promise<Item | undefined>; readonly until: number }>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The activity table, where an admin change's audit entry is written with it (behaviour LOG-9). */
    private readonly activityTable?: string,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  private audited(audit: AdminAuditEntry | undefined): TransactItem[] {
    return audit ? [auditPut(auditTableOf(this.activityTable), audit)] : [];
  }

  async get(id: string): Promise<Environment | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id) }));
    if (!Item) return undefined;
    const { generation: _generation, ...environment } = withoutKeys<Environment & { generation?: string }>(Item);
    return environment;
  }

  private async read(key: { pk: string; sk: string }): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return Item;
  }

  async create(environment: Environment, audit?: AdminAuditEntry): Promise<void> {
    try {
      await putNew(this.db, this.table, mainItems.environment(environment, randomUUID()), this.audited(audit));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`environment ${environment.id}`);
      throw error;
    }
  }

  list(limit: number, cursor?: string): Promise<Page<Environment>> {
    return queryIndexPage<Environment>(this.db, this.table, partitions.environments, limit, cursor);
  }

  /** The environment and its `environment.delete` entry together (behaviour LOG-9); the request token makes the client's resend write no second entry. */
  async delete(id: string, audit: AdminAuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [{ Delete: { TableName: this.table, Key: envKey(id) } }, ...this.audited(audit)],
      }),
    );
  }

  /**
   * Strongly consistent: a grant or revocation counts on the very next authorization. The grant
   * must be of the environment as it is (behaviour ENV-4, `grantHolds`).
   */
  async hasAccess(userId: string, environmentId: string): Promise<boolean> {
    return this.grantGivesAccess(await this.read(grantKey(userId, environmentId)), environmentId);
  }

  /**
   * Whether `grant` (read strongly consistently by the caller) is of the environment as it is.
   * The environment's generation is remembered for a few seconds; a grant that does not match
   * it is checked against the environment read now, so a grant of an environment created a
   * moment ago counts at once. A grant of an environment deleted and created again within those
   * seconds can pass in a container that read the old one, and only if it escaped the
   * deletion's sweep (written in the instant before it).
   */
  async grantGivesAccess(grant: Item | undefined, environmentId: string): Promise<boolean> {
    if (!grant) return false;
    if (grantHolds(grant, await this.environmentItem(environmentId, false))) return true;
    return grantHolds(grant, await this.environmentItem(environmentId, true));
  }

  private environmentItem(environmentId: string, fresh: boolean): Promise<Item | undefined> {
    const now = this.nowMs();
    const known = this.remembered.get(environmentId);
    if (!fresh && known && now < known.until) return known.item;
    const item = this.read(envKey(environmentId));
    const entry = { item, until: now + environmentGenerationCacheMs };
    this.remembered.set(environmentId, entry);
    item.catch(() => {
      if (this.remembered.get(environmentId) === entry) this.remembered.delete(environmentId);
    });
    if (this.remembered.size > 1000) this.remembered.delete(this.remembered.keys().next().value!);
    return item;
  }

  /**
   * Grants the environment as it is now, or answers false when it does not exist. One
   * transaction writes the grant on the condition that the environment is still the one read
   * (its generation), so a grant racing the environment's deletion either lands before it (and
   * is the deletion's to remove) or is refused; it can never outlive it into a later
   * environment with the same id (behaviour ENV-4). A grant of an earlier environment with that
   * id is replaced. With `audit`, its entry is written in the same transaction (behaviour LOG-9).
   * Idempotent: the DynamoDB client's resend of the transaction is applied once.
   */
  async grant(userId: string, environmentId: string, grantedAt: string, audit?: AdminAuditEntry): Promise<boolean> {
    const environment = await this.read(envKey(environmentId));
    if (!environment) return false;
    const generation = environment.generation as string;
    return transactIfConditionsHold(this.db, [
      {
        ConditionCheck: {
          TableName: this.table,
          Key: envKey(environmentId),
          ConditionExpression: 'generation = :generation',
          ExpressionAttributeValues: { ':generation': generation },
        },
      },
      { Put: { TableName: this.table, Item: mainItems.environmentGrant(userId, environmentId, grantedAt, generation) } },
      // Behaviour LOG-9: the grant and its audit entry together.
      ...this.audited(audit),
    ]);
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

  /**
   * The user's grants with their time, for the admin API: only those that give access now
   * (their environment exists and is the one they were made for, `grantHolds`).
   */
  async grantsOf(userId: string): Promise<{ userId: string; environmentId: string; grantedAt: string }[]> {
    const items = await queryAll(this.db, prefixQuery(this.table, partitions.user(userId), partitions.environmentGrantPrefix));
    const environments = await Promise.all(items.map((item) => this.read(envKey(String(item.environmentId)))));
    return items
      .filter((item, i) => grantHolds(item, environments[i]))
      .map((item) => ({ userId, environmentId: String(item.environmentId), grantedAt: String(item.grantedAt) }));
  }

  /** Deletes every grant of the environment (before the environment itself is deleted). */
  async revokeAllGrantsTo(environmentId: string): Promise<void> {
    await deleteQueried(this.db, gsi1Query(this.table, partitions.usersOfEnvironment(environmentId)));
  }
}
