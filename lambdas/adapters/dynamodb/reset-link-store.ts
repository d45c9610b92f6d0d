/**
 * Password-reset links (docs/storage-schema.md): `PWRESET#<sha256(token)>` holds the user,
 * the address the link went to and the credentialVersion it was issued under; the user's
 * pointer `PWRESETUSER#<userId>` names the digest of their newest link, so issuing a link
 * replaces the pointer and every older link stops working.
 */
import { BatchGetCommand, GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { User } from '../../core/model';
import type { PhysicalTableNames } from './client';
import { transactIfConditionsHold, transactRetryingConflicts } from './conditional-writes';
import { expiringItem, isConditionFailure, isStill, withoutKeys } from './items';
import * as keys from './keys/item-keys';
import type { RecoveryProof, RecoveryUse, ResetLink, ResetLinkStore } from '../../core/account/ports';

export class DynamoResetLinkStore implements ResetLinkStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: PhysicalTableNames,
  ) {}

  async issue(digest: string, link: ResetLink): Promise<void> {
    const table = this.tables.ephemeral;
    await this.db.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          { Put: { TableName: table, Item: expiringItem(keys.resetLink(digest), link) } },
          { Put: { TableName: table, Item: { ...keys.resetLinkOfUser(link.userId), digest, ttl: link.expiresAtEpoch } } },
        ],
      }),
    );
  }

  async find(digest: string, nowEpoch: number): Promise<ResetLink | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.resetLink(digest), ConsistentRead: true }),
    );
    if (!Item || Number(Item.expiresAtEpoch) <= nowEpoch) return undefined;
    const link = withoutKeys<ResetLink>(Item);
    const pointer = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.resetLinkOfUser(link.userId), ConsistentRead: true }),
    );
    return pointer.Item?.digest === digest ? link : undefined;
  }

  async currentUser(userId: string): Promise<User | undefined> {
    const { Responses } = await this.db.send(
      new BatchGetCommand({ RequestItems: { [this.tables.main]: { Keys: [keys.user(userId)], ConsistentRead: true } } }),
    );
    const item = Responses?.[this.tables.main]?.[0];
    return item ? withoutKeys<User>(item) : undefined;
  }

  async redeem(
    digest: string,
    link: ResetLink,
    change: { readonly passwordHash: string; readonly credentialVersion: number; readonly at: string },
    nowEpoch: number,
    recovery: { readonly digest: string; readonly proof: RecoveryProof },
  ): Promise<boolean> {
    const table = this.tables.ephemeral;
    return transactIfConditionsHold(this.db, [
      {
        Delete: {
          TableName: table,
          Key: keys.resetLink(digest),
          ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now',
          ExpressionAttributeValues: { ':now': nowEpoch },
        },
      },
      {
        Delete: {
          TableName: table,
          Key: keys.resetLinkOfUser(link.userId),
          ConditionExpression: 'digest = :digest',
          ExpressionAttributeValues: { ':digest': digest },
        },
      },
      {
        Update: {
          TableName: this.tables.main,
          Key: keys.user(link.userId),
          // The link proves the mailbox, so the address counts as verified from now on.
          UpdateExpression:
            'SET passwordHash = :hash, credentialVersion = :next, updatedAt = :at, emailVerifiedAt = if_not_exists(emailVerifiedAt, :at)',
          ConditionExpression: `attribute_exists(pk) AND email = :email AND ${isStill('credentialVersion', ':seen', link.credentialVersion)}`,
          ExpressionAttributeValues: {
            ':hash': change.passwordHash,
            ':next': change.credentialVersion,
            ':at': change.at,
            ':email': link.email,
            ':seen': link.credentialVersion,
          },
        },
      },
      // Behaviour RESET-9: the completion's proof, written only with the reset itself.
      {
        Put: {
          TableName: table,
          Item: expiringItem(keys.recoveryProof(recovery.digest), recovery.proof),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  }

  async findRecovery(digest: string, nowEpoch: number): Promise<RecoveryProof | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: keys.recoveryProof(digest), ConsistentRead: true }),
    );
    // TTL deletes late: a proof past its time is gone; a used one is gone too.
    if (!Item || Number(Item.expiresAtEpoch) <= nowEpoch || Item.consumedBy !== undefined) return undefined;
    return { userId: String(Item.userId), credentialVersion: Number(Item.credentialVersion), expiresAtEpoch: Number(Item.expiresAtEpoch) };
  }

  /**
   * Behaviour RESET-9: one transaction uses the proof up and moves the user's credentialVersion and
   * passkeyGeneration, on the version the proof was issued for; so the proof is spent exactly when
   * the removal took effect, and a failure leaves both as they were (the proof still works). The
   * ClientRequestToken makes the DynamoDB client's resend after a lost reply the same use, not a
   * second one. A transaction that a concurrent one on the user cancelled (a registration's check,
   * TransactionConflict) wrote nothing and is tried again.
   */
  async useRecovery(digest: string, use: RecoveryUse, nowEpoch: number): Promise<boolean> {
    return transactRetryingConflicts(
      this.db,
      [
        {
          Update: {
            TableName: this.tables.ephemeral,
            Key: keys.recoveryProof(digest),
            UpdateExpression: 'SET consumedBy = :claim',
            ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now AND attribute_not_exists(consumedBy) AND userId = :user',
            ExpressionAttributeValues: { ':claim': randomUUID(), ':now': nowEpoch, ':user': use.userId },
          },
        },
        {
          Update: {
            TableName: this.tables.main,
            Key: keys.user(use.userId),
            // Behaviour RESET-13, KEY-17: the self-service keys' generation moves in the same
            // write; the conditions on credentialVersion make it move once per proof.
            UpdateExpression:
              'SET credentialVersion = :version, passkeyGeneration = :generation, apiKeyGeneration = if_not_exists(apiKeyGeneration, :zero) + :one, updatedAt = :at',
            ConditionExpression: `attribute_exists(pk) AND ${isStill('credentialVersion', ':seenVersion', use.seen.credentialVersion)} AND ${isStill('passkeyGeneration', ':seenGeneration', use.seen.passkeyGeneration)}`,
            ExpressionAttributeValues: {
              ':version': use.next.credentialVersion,
              ':generation': use.next.passkeyGeneration,
              ':at': use.at,
              ':zero': 0,
              ':one': 1,
              ':seenVersion': use.seen.credentialVersion,
              ':seenGeneration': use.seen.passkeyGeneration,
            },
          },
        },
      ],
      (error) => {
        if (isConditionFailure(error)) return false;
        throw error;
      },
    );
  }
}
