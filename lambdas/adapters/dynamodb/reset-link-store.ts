/**
 * Password-reset links (docs/storage-schema.md): `PWRESET#<sha256(token)>` holds the user,
 * the address the link went to and the credentialVersion it was issued under; the user's
 * pointer `PWRESETUSER#<userId>` names the digest of their newest link, so issuing a link
 * replaces the pointer and every older link stops working.
 */
import { BatchGetCommand, GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { RecoveryProof, ResetLink, ResetLinkStore } from '../../core/account/password-reset';
import type { User } from '../../core/model';
import type { PhysicalTableNames } from './client';
import { claimOnce } from './claim';
import { isConditionFailure, withoutKeys } from './items';

const linkKey = (digest: string) => ({ pk: `PWRESET#${digest}`, sk: 'PWRESET' });
const pointerKey = (userId: string) => ({ pk: `PWRESETUSER#${userId}`, sk: 'PWRESETUSER' });
const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
const recoveryKey = (digest: string) => ({ pk: `PWRECOVER#${digest}`, sk: 'PWRECOVER' });

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
          { Put: { TableName: table, Item: { ...linkKey(digest), ...link, ttl: link.expiresAtEpoch } } },
          { Put: { TableName: table, Item: { ...pointerKey(link.userId), digest, ttl: link.expiresAtEpoch } } },
        ],
      }),
    );
  }

  async find(digest: string, nowEpoch: number): Promise<ResetLink | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.ephemeral, Key: linkKey(digest), ConsistentRead: true }));
    if (!Item || Number(Item.expiresAtEpoch) <= nowEpoch) return undefined;
    const link = withoutKeys<ResetLink>(Item);
    const pointer = await this.db.send(
      new GetCommand({ TableName: this.tables.ephemeral, Key: pointerKey(link.userId), ConsistentRead: true }),
    );
    return pointer.Item?.digest === digest ? link : undefined;
  }

  async currentUser(userId: string): Promise<User | undefined> {
    const { Responses } = await this.db.send(
      new BatchGetCommand({ RequestItems: { [this.tables.main]: { Keys: [userKey(userId)], ConsistentRead: true } } }),
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
    try {
      await this.db.send(
        new TransactWriteCommand({
          // Idempotent for 10 minutes: the DynamoDB client's resend after a lost reply is not a second use.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Delete: {
                TableName: table,
                Key: linkKey(digest),
                ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now',
                ExpressionAttributeValues: { ':now': nowEpoch },
              },
            },
            {
              Delete: {
                TableName: table,
                Key: pointerKey(link.userId),
                ConditionExpression: 'digest = :digest',
                ExpressionAttributeValues: { ':digest': digest },
              },
            },
            {
              Update: {
                TableName: this.tables.main,
                Key: userKey(link.userId),
                // The link proves the mailbox, so the address counts as verified from now on.
                UpdateExpression:
                  'SET passwordHash = :hash, credentialVersion = :next, updatedAt = :at, emailVerifiedAt = if_not_exists(emailVerifiedAt, :at)',
                ConditionExpression:
                  link.credentialVersion === 0
                    ? 'attribute_exists(pk) AND email = :email AND (attribute_not_exists(credentialVersion) OR credentialVersion = :seen)'
                    : 'attribute_exists(pk) AND email = :email AND credentialVersion = :seen',
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
                Item: { ...recoveryKey(recovery.digest), ...recovery.proof, ttl: recovery.proof.expiresAtEpoch },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** A claim (claim.ts): one caller uses the proof, the DynamoDB client's resend of that call included. */
  async claimRecovery(digest: string, nowEpoch: number): Promise<RecoveryProof | undefined> {
    const claimed = await claimOnce(this.db, this.tables.ephemeral, recoveryKey(digest), nowEpoch);
    if (!claimed) return undefined;
    return {
      userId: String(claimed.userId),
      credentialVersion: Number(claimed.credentialVersion),
      expiresAtEpoch: Number(claimed.expiresAtEpoch),
    };
  }
}
