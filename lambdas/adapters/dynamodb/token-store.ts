import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Issuance, RedeemOutcome, ReissueOutcome, RotateOutcome } from '../../core/grants/ports';
import type { ActivityRow, AuthorizationCode, FamilyState, IssuedToken, NewFamily, RefreshToken } from '../../core/model';
import type { PhysicalTableNames } from './client';
import { updateIfConditionHolds } from './conditional-writes';
import { activityItem, codeItem, familyItem, refreshItem, tokenRecordItem } from './ephemeral-items';
import { cancellationCodes, isConditionFailure, live, withoutKeys, type TransactItem } from './items';
import { gsi1Query, queryAll } from './pages';
import { openSuccessor, sealSuccessor } from './successor-seal';
import { type ActivityQuery, queryActivityPage } from './activity-shards';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { backoff, retry, tryAgain } from '../../core/retry';

/**
 * Authorization codes, refresh tokens and their families, issued-token records and the
 * activity log. Each successful token request is one write round trip: a transaction
 * where a one-time value is consumed, a batch otherwise.
 */
export class DynamoTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: PhysicalTableNames,
  ) {}

  private issuanceItems(issuance: Issuance): TransactItem[] {
    const items: TransactItem[] = [
      { Put: { TableName: this.tables.ephemeral, Item: tokenRecordItem(issuance.token) } },
      { Put: { TableName: this.tables.activity, Item: activityItem(issuance.activity) } },
    ];
    if (issuance.refresh) {
      items.push({ Put: { TableName: this.tables.ephemeral, Item: refreshItem(issuance.refresh.token, issuance.refresh.value) } });
    }
    return items;
  }

  /**
   * Uses up a one-time value (its update's condition) and writes what it issues, in one
   * transaction: undefined when written, else the per-item cancellation codes of the refusal.
   */
  private async consumeAndIssue(
    consume: Omit<NonNullable<TransactItem['Update']>, 'TableName'>,
    alongside: TransactItem[],
    issuance: Issuance,
  ): Promise<string[] | undefined> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [{ Update: { TableName: this.tables.ephemeral, ...consume } }, ...alongside, ...this.issuanceItems(issuance)],
        }),
      );
      return undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return cancellationCodes(error);
    }
  }

  async saveCode(code: string, value: AuthorizationCode): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tables.ephemeral, Item: codeItem(code, value) }));
  }

  async getCode(code: string, nowEpoch: number): Promise<AuthorizationCode | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.authorizationCode(code), ConsistentRead: true }),
    );
    const item = live(Item, nowEpoch);
    return item ? withoutKeys<AuthorizationCode>(item) : undefined;
  }

  /**
   * Consumes the code and writes what it issues, atomically. The condition makes the
   * second of two redemptions fail; it learns the first one's family so it can revoke it.
   */
  async redeemCode(code: string, family: NewFamily, issuance: Issuance): Promise<RedeemOutcome> {
    const { sub: userId, clientId } = issuance.token;
    const { familyId } = family;
    const refused = await this.consumeAndIssue(
      {
        Key: keys.authorizationCode(code),
        UpdateExpression: 'SET familyId = :family',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(familyId)',
        ExpressionAttributeValues: { ':family': familyId },
      },
      [{ Put: { TableName: this.tables.ephemeral, Item: familyItem(family, userId!, clientId) } }],
      issuance,
    );
    if (!refused) return { kind: 'redeemed' };
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.authorizationCode(code), ConsistentRead: true }),
    );
    return { kind: 'reused', familyId: Item?.familyId as string | undefined };
  }

  async getRefreshToken(token: string, nowEpoch: number): Promise<RefreshToken | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.refreshToken(token), ConsistentRead: true }),
    );
    const item = live(Item, nowEpoch);
    return item ? withoutKeys<RefreshToken>(item) : undefined;
  }

  async isFamilyRevoked(familyId: string): Promise<boolean> {
    const family = await this.familyState(familyId);
    return !family || family.revoked;
  }

  /** Strongly consistent: a revocation or a redemption a moment ago counts. Absent when no such family is stored. */
  async familyState(familyId: string): Promise<FamilyState | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.tokenFamily(familyId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      userId: String(Item.userId),
      revoked: Item.revokedAtEpoch !== undefined,
      credentialVersion: typeof Item.credentialVersion === 'number' ? Item.credentialVersion : 0,
    };
  }

  /**
   * Marks `oldToken` rotated and writes its successor, only if neither it nor its family was used up.
   * With `grace`, the successor is kept sealed for `oldToken` in the same transaction, so a token
   * that shows as rotated always has its kept successor (behaviour REFRESH-7).
   */
  async rotateRefreshToken(
    oldToken: string,
    familyId: string,
    nowEpoch: number,
    issuance: Issuance,
    grace?: { readonly untilEpoch: number },
  ): Promise<RotateOutcome> {
    const kept = grace && issuance.refresh ? [this.graceItem(oldToken, issuance.refresh.token, grace.untilEpoch)] : [];
    const refused = await this.consumeAndIssue(
      {
        Key: keys.refreshToken(oldToken),
        UpdateExpression: 'SET rotatedAtEpoch = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rotatedAtEpoch)',
        ExpressionAttributeValues: { ':now': nowEpoch },
      },
      [
        {
          ConditionCheck: {
            TableName: this.tables.ephemeral,
            Key: keys.tokenFamily(familyId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAtEpoch)',
          },
        },
        ...kept,
      ],
      issuance,
    );
    if (!refused) return { kind: 'rotated' };
    return refused[0] === 'ConditionalCheckFailed' ? { kind: 'reused' } : { kind: 'family-revoked' };
  }

  private graceItem(oldToken: string, successor: string, untilEpoch: number): TransactItem {
    const key = keys.refreshGrace(oldToken);
    return {
      Put: {
        TableName: this.tables.ephemeral,
        Item: { ...key, sealed: sealSuccessor(oldToken, successor, key.pk), untilEpoch, ttl: untilEpoch },
      },
    };
  }

  async graceSuccessor(rotatedToken: string, nowEpoch: number): Promise<string | undefined> {
    const key = keys.refreshGrace(rotatedToken);
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.ephemeral, Key: key, ConsistentRead: true }));
    // TTL deletes late: the window is the stored time, not the item's presence.
    if (!Item || typeof Item.sealed !== 'string' || Number(Item.untilEpoch) < nowEpoch) return undefined;
    return openSuccessor(rotatedToken, Item.sealed, key.pk);
  }

  /**
   * Writes a new access token of the family beside the kept successor, only while that successor
   * is unused and the family unrevoked: a replay after either finds nothing to revive.
   */
  async reissueWithinGrace(successor: string, familyId: string, issuance: Issuance): Promise<ReissueOutcome> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.tables.ephemeral,
                Key: keys.refreshToken(successor),
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rotatedAtEpoch)',
              },
            },
            {
              ConditionCheck: {
                TableName: this.tables.ephemeral,
                Key: keys.tokenFamily(familyId),
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAtEpoch)',
              },
            },
            ...this.issuanceItems(issuance),
          ],
        }),
      );
      return 'reissued';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const [successorCode, familyCode] = cancellationCodes(error);
      if (successorCode === 'ConditionalCheckFailed') return 'successor-used';
      return familyCode === 'ConditionalCheckFailed' ? 'family-revoked' : 'undetermined';
    }
  }

  /** Revokes every refresh token of the family and every access token it issued (introspection checks it). */
  async revokeFamily(familyId: string, nowEpoch: number): Promise<void> {
    // No such family: nothing to revoke.
    await updateIfConditionHolds(this.db, {
      TableName: this.tables.ephemeral,
      Key: keys.tokenFamily(familyId),
      UpdateExpression: 'SET revokedAtEpoch = if_not_exists(revokedAtEpoch, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': nowEpoch },
    });
  }

  /** Revokes every family of the user: their refresh tokens stop working at once. */
  async revokeFamiliesOf(userId: string, nowEpoch: number): Promise<void> {
    const families = await queryAll(this.db, gsi1Query(this.tables.ephemeral, partitions.familiesOfUser(userId)));
    await Promise.all(families.map((item) => this.revokeFamily(String(item.familyId), nowEpoch)));
  }

  /** Grants with nothing to consume (client_credentials, API keys): one batch, two tables. */
  async recordIssued(issuance: Issuance): Promise<void> {
    const items = this.issuanceItems(issuance);
    const byTable: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> = {};
    for (const item of items) (byTable[item.Put!.TableName!] ??= []).push({ PutRequest: { Item: item.Put!.Item! } });
    let pending: typeof byTable | undefined = byTable;
    const done = await retry(
      async () => {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: pending }));
        pending = result.UnprocessedItems as typeof byTable | undefined;
        return pending && Object.keys(pending).length > 0 ? tryAgain : true;
      },
      { attempts: 5, delayMs: backoff(20) },
    );
    if (!done) throw new Error('DynamoDB left issued-token writes unprocessed');
  }

  async startFamily(family: NewFamily, issuance: Issuance): Promise<void> {
    const { sub: userId, clientId } = issuance.token;
    // The request token makes the client's resend after a lost reply the same write (behaviour ERR-5).
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          { Put: { TableName: this.tables.ephemeral, Item: familyItem(family, userId!, clientId) } },
          ...this.issuanceItems(issuance),
        ],
      }),
    );
  }

  async recordActivity(row: ActivityRow): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tables.activity, Item: activityItem(row) }));
  }

  async getTokenRecord(jti: string, nowEpoch: number): Promise<IssuedToken | undefined> {
    // Strongly consistent: a client may call us with a token right after receiving it.
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.tokenRecord(jti), ConsistentRead: true }),
    );
    const item = live(Item, nowEpoch);
    return item ? withoutKeys<IssuedToken>(item) : undefined;
  }

  /** A page of a client's token activity, newest first, merged across its shards (activity-shards.ts). */
  async activityPage(clientId: string, query: ActivityQuery): Promise<{ items: ActivityRow[]; next?: string }> {
    const page = await queryActivityPage(this.db, this.tables.activity, clientId, query);
    return { items: page.items.map((i) => withoutKeys<ActivityRow>(i)), ...(page.next ? { next: page.next } : {}) };
  }

  /** Every activity row of a client, oldest first (operators and tests). */
  async activityOf(clientId: string): Promise<ActivityRow[]> {
    const rows: ActivityRow[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.activityPage(clientId, { limit: 500, ...(cursor ? { cursor } : {}) });
      rows.push(...page.items);
      cursor = page.next;
    } while (cursor);
    return rows.reverse();
  }
}
