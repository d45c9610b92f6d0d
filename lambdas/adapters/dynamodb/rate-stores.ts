/**
 * Per-user and per-address counters of the account flows (ephemeral table,
 * docs/storage-schema.md): mail sends (`SENDRATE#…`), failed passwords per address (`PWFAIL#…`)
 * and per device (`DEVICE#…`).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { decideSend } from '../../core/account/send-rate';
import { digest, isOwnWrite } from './items';
import type {
  AttemptSlot,
  DeviceStandingStore,
  DeviceTake,
  PasswordAttemptStore,
  SendRateDecision,
  SendRatePolicy,
  SendRateStore,
} from '../../core/account/ports';

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
    const key = { pk: `SENDRATE#${subject}`, sk: 'SENDRATE' };
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
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
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

  private key(subject: string, window: number) {
    return { pk: `PWFAIL#${subject}#${window}`, sk: 'PWFAIL' };
  }

  async take(subject: string, window: number, attemptToken: string, max: number, expiresAtEpoch: number): Promise<AttemptSlot> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(subject, window),
          UpdateExpression: 'ADD slots :token SET #ttl = :ttl',
          ConditionExpression: '(attribute_not_exists(slots) OR size(slots) < :max) AND NOT contains(slots, :one)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':token': new Set([attemptToken]), ':one': attemptToken, ':max': max, ':ttl': expiresAtEpoch },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { taken: true, full: ((Attributes?.slots as Set<string> | undefined)?.size ?? 0) >= max };
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      // The DynamoDB client's resend of this very update: the slot is ours.
      const old = (error as { Item?: Record<string, AttributeValue> }).Item;
      const slots = old?.slots?.SS ?? [];
      return slots.includes(attemptToken)
        ? { taken: true, full: slots.length >= max }
        : { taken: false, full: true, notified: old?.notifiedBy !== undefined };
    }
  }

  async release(subject: string, window: number, attemptToken: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(subject, window),
          UpdateExpression: 'DELETE slots :token',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':token': new Set([attemptToken]) },
        }),
      )
      .catch((error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async claimNotice(subject: string, window: number, claimToken: string): Promise<boolean> {
    try {
      // `= :claim` lets the DynamoDB client's resend of a claim that landed pass as the same claim.
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(subject, window),
          UpdateExpression: 'SET notifiedBy = :claim',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(notifiedBy) OR notifiedBy = :claim)',
          ExpressionAttributeValues: { ':claim': claimToken },
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      return false;
    }
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

  private key(nonce: string) {
    return { pk: `DEVICE#${digest(nonce)}`, sk: 'DEVICE' };
  }

  async take(nonce: string, userId: string, attemptToken: string, max: number, nowEpoch: number): Promise<DeviceTake> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(nonce),
          UpdateExpression: 'ADD slots :token',
          ConditionExpression:
            'attribute_exists(pk) AND userId = :user AND expiresAtEpoch > :now AND (attribute_not_exists(slots) OR size(slots) < :max) AND NOT contains(slots, :one)',
          ExpressionAttributeValues: {
            ':token': new Set([attemptToken]),
            ':one': attemptToken,
            ':user': userId,
            ':now': nowEpoch,
            ':max': max,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'taken';
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      const old = (error as { Item?: Record<string, AttributeValue> }).Item;
      const slots = old?.slots?.SS ?? [];
      // The DynamoDB client's resend of this very update: the slot is ours.
      if (slots.includes(attemptToken)) return 'taken';
      const live = old?.userId?.S === userId && Number(old?.expiresAtEpoch?.N ?? 0) > nowEpoch;
      return live && slots.length >= max ? 'at-ceiling' : 'no-standing';
    }
  }

  async release(nonce: string, attemptToken: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(nonce),
          UpdateExpression: 'DELETE slots :token',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':token': new Set([attemptToken]) },
        }),
      )
      .catch((error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async create(nonce: string, userId: string, expiresAtEpoch: number, createdAt: string): Promise<void> {
    // A fresh 256-bit nonce: no other item can hold this key, so a plain put (and its resend) is safe.
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...this.key(nonce), userId, createdAt, expiresAtEpoch, ttl: expiresAtEpoch } }),
    );
  }

  async remove(nonce: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: this.key(nonce) }));
  }
}
