/**
 * Per-user and per-address counters of the account flows (ephemeral table,
 * docs/storage-schema.md): mail sends (`SENDRATE#…`), failed passwords per address (`PWFAIL#…`)
 * and per device (`DEVICE#…`).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { decideSend } from '../../core/account/send-rate';
import type {
  AttemptSlot,
  DeviceStandingStore,
  DeviceTake,
  PasswordAttemptStore,
  SendRateDecision,
  SendRatePolicy,
  SendRateStore,
} from '../../core/account/ports';
import { updateIfConditionHolds } from './conditional-writes';
import { failedAgainst, isConditionFailure, isOwnWrite } from './items';
import * as keys from './keys/item-keys';

/** A slot is free while the set has fewer than `:max` members, and this attempt holds none yet. */
const slotFree = '(attribute_not_exists(slots) OR size(slots) < :max) AND NOT contains(slots, :one)';

/**
 * Takes a slot of the item's `slots` set for `attemptToken`, under `slotFree` and the item's own
 * `condition`, so parallel attempts cannot overrun `max`. `used`: the slots taken after it (or
 * found, when refused); `old`: the item a refusal met. The DynamoDB client's resend of an update
 * that landed meets its own slot: that counts as taken.
 */
async function takeSlot(
  db: DynamoDBDocumentClient,
  table: string,
  key: Record<string, string>,
  attemptToken: string,
  max: number,
  item: {
    readonly set?: string;
    readonly condition?: string;
    readonly names?: Record<string, string>;
    readonly values: Record<string, unknown>;
  },
): Promise<{ readonly taken: boolean; readonly used: number; readonly old?: Record<string, unknown> }> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: item.set ? `ADD slots :token SET ${item.set}` : 'ADD slots :token',
        ConditionExpression: item.condition ? `${item.condition} AND ${slotFree}` : slotFree,
        ...(item.names ? { ExpressionAttributeNames: item.names } : {}),
        ExpressionAttributeValues: { ':token': new Set([attemptToken]), ':one': attemptToken, ':max': max, ...item.values },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { taken: true, used: (Attributes?.slots as Set<string> | undefined)?.size ?? 0 };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const old = failedAgainst(error);
    const slots = (old?.slots as Set<string> | undefined) ?? new Set<string>();
    return { taken: slots.has(attemptToken), used: slots.size, ...(old ? { old } : {}) };
  }
}

/** Gives an attempt's slot back (a set DELETE: idempotent, so the DynamoDB client's resend is harmless); an item gone already is fine. */
async function releaseSlot(db: DynamoDBDocumentClient, table: string, key: Record<string, string>, attemptToken: string): Promise<void> {
  await updateIfConditionHolds(db, {
    TableName: table,
    Key: key,
    UpdateExpression: 'DELETE slots :token',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':token': new Set([attemptToken]) },
  });
}

/**
 * The send times of the last hour, in one item per subject, changed by optimistic
 * concurrency (`version`): of two concurrent sends that would each be the last allowed,
 * one wins and the other reads again. The put carries a per-call `writeToken`, so the
 * DynamoDB client's resend of a put that landed is recognised as this call's own.
 */
export class DynamoSendRate implements SendRateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async take(subject: string, policy: SendRatePolicy, nowEpoch: number): Promise<SendRateDecision> {
    const key = keys.sendRate(subject);
    for (let attempt = 0; attempt < 8; attempt++) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
      const history = ((Item?.sends as number[] | undefined) ?? []).filter((at) => at > nowEpoch - 3600);
      const decision = decideSend(history, policy, nowEpoch);
      if (!decision.allowed) return decision;
      const writeToken = randomUUID();
      const version = Number(Item?.version ?? 0);
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...key, sends: [...history, nowEpoch], version: version + 1, writeToken, ttl: nowEpoch + 3600 },
            ConditionExpression: Item ? 'version = :seen' : 'attribute_not_exists(pk)',
            ...(Item ? { ExpressionAttributeValues: { ':seen': version } } : {}),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return decision;
      } catch (error) {
        if (isOwnWrite(error, writeToken)) return decision;
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Still contended after several reads: someone is sending to this subject right now.
    return { allowed: false, retryAfterSeconds: 60 };
  }
}

/**
 * One item per address and 15-minute window holding the set `slots` of attempts in flight
 * or failed; a slot is taken under `size(slots) < :max`, so parallel guesses cannot overrun
 * the ceiling, and given back (set DELETE, idempotent) by a correct password. `notifiedBy`
 * records the one attempt that had the owner told this window (behaviour PWFAIL-5).
 */
export class DynamoPasswordAttempts implements PasswordAttemptStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async take(subject: string, window: number, attemptToken: string, max: number, expiresAtEpoch: number): Promise<AttemptSlot> {
    const slot = await takeSlot(this.db, this.table, keys.passwordFailures(subject, window), attemptToken, max, {
      set: '#ttl = :ttl',
      names: { '#ttl': 'ttl' },
      values: { ':ttl': expiresAtEpoch },
    });
    return slot.taken
      ? { taken: true, full: slot.used >= max }
      : { taken: false, full: true, notified: slot.old?.notifiedBy !== undefined };
  }

  async release(subject: string, window: number, attemptToken: string): Promise<void> {
    await releaseSlot(this.db, this.table, keys.passwordFailures(subject, window), attemptToken);
  }

  async claimNotice(subject: string, window: number, claimToken: string): Promise<boolean> {
    // `= :claim` lets the DynamoDB client's resend of a claim that landed pass as the same claim.
    return updateIfConditionHolds(this.db, {
      TableName: this.table,
      Key: keys.passwordFailures(subject, window),
      UpdateExpression: 'SET notifiedBy = :claim',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(notifiedBy) OR notifiedBy = :claim)',
      ExpressionAttributeValues: { ':claim': claimToken },
    });
  }
}

/**
 * One item per device cookie, keyed by the digest of its nonce (the cookie value is never
 * stored), naming its user and holding the device's failures as `slots`, taken under the same
 * kind of condition as the address window (behaviour PWFAIL-3, PWFAIL-4).
 */
export class DynamoDeviceStanding implements DeviceStandingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async take(nonce: string, userId: string, attemptToken: string, max: number, nowEpoch: number): Promise<DeviceTake> {
    const slot = await takeSlot(this.db, this.table, keys.device(nonce), attemptToken, max, {
      condition: 'attribute_exists(pk) AND userId = :user AND expiresAtEpoch > :now',
      values: { ':user': userId, ':now': nowEpoch },
    });
    if (slot.taken) return 'taken';
    const live = slot.old?.userId === userId && Number(slot.old?.expiresAtEpoch ?? 0) > nowEpoch;
    return live && slot.used >= max ? 'at-ceiling' : 'no-standing';
  }

  async release(nonce: string, attemptToken: string): Promise<void> {
    await releaseSlot(this.db, this.table, keys.device(nonce), attemptToken);
  }

  async create(nonce: string, userId: string, expiresAtEpoch: number, createdAt: string): Promise<void> {
    // A fresh 256-bit nonce: no other item can hold this key, so a plain put (and its resend) is safe.
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...keys.device(nonce), userId, createdAt, expiresAtEpoch, ttl: expiresAtEpoch } }),
    );
  }

  async remove(nonce: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.device(nonce) }));
  }
}
