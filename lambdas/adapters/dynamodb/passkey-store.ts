/**
 * Passkeys in the main table and WebAuthn ceremonies in the ephemeral one (docs/storage-schema.md).
 * A passkey is `PASSKEY#<sha256(credential id)>`, with an index entry `USER#<id>`/`PASSKEY#<digest>`
 * written in the same transaction; a ceremony is `WEBAUTHN#<sha256(challenge)>`.
 */
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { isOfCurrentGeneration } from '../../core/account/passkeys';
import type { AdminAuditEntry, User } from '../../core/model';
import { auditPut, auditTableOf } from './audit-log';
import { transactIfConditionsHold, transactRetryingConflicts, updateIfConditionHolds } from './conditional-writes';
import { cancellationCodes, isConditionFailure, isStill, keyFits, putExpiring, withoutKeys } from './items';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { digest } from './keys/key-parts';
import { prefixQuery, queryAll } from './pages';
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
    /** The activity table, where an admin's removal writes its audit entry with it (behaviour LOG-9). */
    private readonly activityTable?: string,
  ) {}

  async add(passkey: Passkey, owner: PasskeyOwnerState): Promise<'added' | 'duplicate' | 'outdated'> {
    const hash = digest(passkey.credentialId);
    // Another transaction on one of these items (the removal's own write) wrote nothing: sent again.
    const outcome = await transactRetryingConflicts(
      this.db,
      [
        { Put: { TableName: this.table, Item: { ...keys.passkey(hash), ...passkey }, ConditionExpression: 'attribute_not_exists(pk)' } },
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
      (error) => {
        if (cancellationCodes(error)[2] === 'ConditionalCheckFailed') return 'outdated' as const;
        if (isConditionFailure(error)) return 'duplicate' as const;
        throw error;
      },
    );
    return outcome === true ? 'added' : outcome;
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
    const entries = await queryAll(this.db, prefixQuery(this.table, partitions.user(userId), partitions.passkeyPrefix));
    const found = await Promise.all(entries.map((entry) => this.get(String(entry.credentialId))));
    return found.filter((p): p is Passkey => p !== undefined && p.userId === userId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async remove(userId: string, credentialId: string, audit?: AdminAuditEntry): Promise<boolean> {
    const hash = digest(credentialId);
    if (!keyFits(keys.passkey(hash).pk)) return false;
    return transactIfConditionsHold(this.db, [
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
      ...(audit ? [auditPut(auditTableOf(this.activityTable), audit)] : []),
    ]);
  }

  async recordUse(credentialId: string, counter: number, usedAt: string): Promise<boolean> {
    // A per-call token: the DynamoDB client's resend of this update passes its own condition again.
    const useToken = randomUUID();
    return updateIfConditionHolds(this.db, {
      TableName: this.table,
      Key: keys.passkey(digest(credentialId)),
      UpdateExpression: 'SET #counter = :n, lastUsedAt = :at, useToken = :token',
      // WebAuthn 7.2 step 21: forwards only; an authenticator without a counter reports 0 every time.
      ConditionExpression: `attribute_exists(pk) AND (#counter ${counter === 0 ? '=' : '<'} :n OR useToken = :token)`,
      ExpressionAttributeNames: { '#counter': 'counter' },
      ExpressionAttributeValues: { ':n': counter, ':at': usedAt, ':token': useToken },
    });
  }

  /**
   * Behaviour PASSKEY-9, RESET-9: deleting a user, and the reset's "Remove all passkeys", remove
   * every passkey (each entry and its passkey), found in the user's partition with a strongly
   * consistent query, so one written a moment ago is found.
   */
  async removeAllOf(userId: string): Promise<Passkey[]> {
    const entries = await queryAll(this.db, prefixQuery(this.table, partitions.user(userId), partitions.passkeyPrefix));
    const removed: Passkey[] = [];
    for (const entry of entries) {
      const passkey = await this.get(String(entry.credentialId));
      if ((await this.remove(userId, String(entry.credentialId))) && passkey) removed.push(passkey);
    }
    return removed.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

export class DynamoCeremonyStore implements CeremonyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async save(challenge: string, ceremony: Ceremony): Promise<void> {
    await putExpiring(this.db, this.table, keys.passkeyCeremony(challenge), ceremony);
  }

  /** Used up by a claim (claim.ts): safe against the DynamoDB client's resend, lost by any other caller. */
  async consume(challenge: string, nowEpoch: number): Promise<Ceremony | undefined> {
    const claimed = await claimOnce(this.db, this.table, keys.passkeyCeremony(challenge), nowEpoch);
    if (!claimed) return undefined;
    const { consumedBy: _, ...ceremony } = withoutKeys<Ceremony & { consumedBy?: string }>(claimed);
    return ceremony;
  }
}
