/**
 * Passkeys in the main table and WebAuthn ceremonies in the ephemeral one (docs/storage-schema.md).
 * A passkey is `PASSKEY#<sha256(credential id)>`, with an index entry `USER#<id>`/`PASSKEY#<digest>`
 * written in the same transaction; a ceremony is `WEBAUTHN#<sha256(challenge)>`.
 */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { isOfCurrentGeneration } from '../../core/account/passkeys';
import type { User } from '../../core/model';
import { retry, tryAgain } from '../../core/retry';
import { cancellationCodes, digest, isConditionFailure, isStill, keyFits, withoutKeys } from './items';
import { keys, partitions } from './keys';
import { queryAll } from './pages';
import { claimOnce } from './claim';
import type { Ceremony, CeremonyStore, Passkey, PasskeyOwnerState, PasskeyStore } from '../../core/account/ports';

const storageOnly = new Set(['useToken']);
const toPasskey = (item: Record<string, unknown>): Passkey =>
  Object.fromEntries(
    Object.entries(withoutKeys<Record<string, unknown>>(item)).filter(([name]) => !storageOnly.has(name)),
  ) as unknown as Passkey;

export class DynamoPasskeyStore implements PasskeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async add(passkey: Passkey, owner: PasskeyOwnerState): Promise<'added' | 'duplicate' | 'outdated'> {
    const hash = digest(passkey.credentialId);
    const outcome = await retry(
      async (attempt) => {
        try {
          await this.db.send(
            new TransactWriteCommand({
              // Idempotent for 10 minutes: the DynamoDB client's resend of a transaction that went through succeeds again.
              ClientRequestToken: randomUUID(),
              TransactItems: [
                {
                  Put: {
                    TableName: this.table,
                    Item: { ...keys.passkey(hash), ...passkey },
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                },
                {
                  Put: {
                    TableName: this.table,
                    Item: { ...keys.passkeyOfUser(passkey.userId, hash), credentialId: passkey.credentialId, createdAt: passkey.createdAt },
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                },
                // Behaviour PASSKEY-14: only while the adding session is still live, so a registration
                // that lands after a password change or the reset's "Remove all passkeys" (which
                // moves both values first, RESET-9) stores nothing.
                {
                  ConditionCheck: {
                    TableName: this.table,
                    Key: keys.user(passkey.userId),
                    ConditionExpression: `attribute_exists(pk) AND ${isStill('credentialVersion', ':version', owner.credentialVersion)} AND ${isStill('passkeyGeneration', ':generation', owner.passkeyGeneration)}`,
                    ExpressionAttributeValues: { ':version': owner.credentialVersion, ':generation': owner.passkeyGeneration },
                  },
                },
              ],
            }),
          );
          return 'added' as const;
        } catch (error) {
          const codes = cancellationCodes(error);
          // Another transaction on one of these items (the removal's own write): nothing was written, so try again.
          if (codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed') && attempt < 9) return tryAgain;
          if (codes[2] === 'ConditionalCheckFailed') return 'outdated' as const;
          if (isConditionFailure(error)) return 'duplicate' as const;
          throw error;
        }
      },
      { attempts: 10, delayMs: (attempt) => 5 + Math.random() * 20 * attempt },
    );
    if (!outcome) throw new Error('DynamoDB kept cancelling the passkey write for conflicting transactions');
    return outcome;
  }

  async get(credentialId: string): Promise<Passkey | undefined> {
    const key = keys.passkey(digest(credentialId));
    if (!keyFits(key.pk)) return undefined;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return Item ? toPasskey(Item) : undefined;
  }

  /**
   * Behaviour PASSKEY-13: only the passkeys of the owner's current generation, read with the owner.
   * Older ones sign no one in; their records outlive the reset's removal only when it failed
   * half-way, and no list shows them.
   */
  async listOf(userId: string): Promise<Passkey[]> {
    const [all, owner] = await Promise.all([
      this.allOf(userId),
      this.db.send(new GetCommand({ TableName: this.table, Key: keys.user(userId), ConsistentRead: true })),
    ]);
    if (!owner.Item) return [];
    const user = owner.Item as Pick<User, 'passkeyGeneration'>;
    return all.filter((passkey) => isOfCurrentGeneration(passkey, user));
  }

  /** Every passkey record of the user, of any generation: the index entries of the user's own partition, read strongly consistently. */
  private async allOf(userId: string): Promise<Passkey[]> {
    const entries = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partitions.user(userId), ':prefix': partitions.passkeyPrefix },
      ConsistentRead: true,
    });
    const found = await Promise.all(entries.map((entry) => this.get(String(entry.credentialId))));
    return found.filter((p): p is Passkey => p !== undefined && p.userId === userId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async remove(userId: string, credentialId: string): Promise<boolean> {
    const hash = digest(credentialId);
    if (!keyFits(keys.passkey(hash).pk)) return false;
    try {
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Delete: {
                TableName: this.table,
                Key: keys.passkey(hash),
                // Only the owner's: a user cannot remove someone else's passkey by naming its id.
                ConditionExpression: 'userId = :user',
                ExpressionAttributeValues: { ':user': userId },
              },
            },
            { Delete: { TableName: this.table, Key: keys.passkeyOfUser(userId, hash) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordUse(credentialId: string, counter: number, usedAt: string): Promise<boolean> {
    // A per-call token: the DynamoDB client's resend of this update passes its own condition again.
    const useToken = randomUUID();
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.passkey(digest(credentialId)),
          UpdateExpression: 'SET #counter = :n, lastUsedAt = :at, useToken = :token',
          // WebAuthn 7.2 step 21: forwards only; an authenticator without a counter reports 0 every time.
          ConditionExpression: `attribute_exists(pk) AND (#counter ${counter === 0 ? '=' : '<'} :n OR useToken = :token)`,
          ExpressionAttributeNames: { '#counter': 'counter' },
          ExpressionAttributeValues: { ':n': counter, ':at': usedAt, ':token': useToken },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Behaviour PASSKEY-9, RESET-9: deleting a user, and the reset's "Remove all passkeys", remove
   * every passkey (each entry and its passkey), found in the user's partition with a strongly
   * consistent query, so one written a moment ago is found.
   */
  async removeAllOf(userId: string): Promise<Passkey[]> {
    const entries = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partitions.user(userId), ':prefix': partitions.passkeyPrefix },
      ConsistentRead: true,
    });
    const removed: Passkey[] = [];
    for (const entry of entries) {
      const passkey = await this.get(String(entry.credentialId));
      if ((await this.remove(userId, String(entry.credentialId))) && passkey) removed.push(passkey);
    }
    return removed.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

const ceremonyKey = (challenge: string) => ({ pk: `WEBAUTHN#${digest(challenge)}`, sk: 'WEBAUTHN' });

export class DynamoCeremonyStore implements CeremonyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async save(challenge: string, ceremony: Ceremony): Promise<void> {
    // A fresh 256-bit challenge: no condition needed, and a resend of the put writes the same item.
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...ceremonyKey(challenge), ...ceremony, ttl: ceremony.expiresAtEpoch } }),
    );
  }

  /** Used up by a claim (claim.ts): safe against the DynamoDB client's resend, lost by any other caller. */
  async consume(challenge: string, nowEpoch: number): Promise<Ceremony | undefined> {
    const claimed = await claimOnce(this.db, this.table, ceremonyKey(challenge), nowEpoch);
    if (!claimed) return undefined;
    const { consumedBy: _, ...ceremony } = withoutKeys<Ceremony & { consumedBy?: string }>(claimed);
    return ceremony;
  }
}
