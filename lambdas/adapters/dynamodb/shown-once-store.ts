/**
 * Secrets kept for one showing on a dashboard page (behaviour DASH-13), in the ephemeral table by
 * the digest of their handle. The secret is sealed with the handle itself (successor-seal.ts): a
 * dump of the table holds neither the handle nor anything that opens the secret.
 */
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ShownOnce, ShownOncePurpose, ShownOnceStore } from '../../core/admin/shown-once';
import { claimOnce } from './claim';
import * as keys from './keys/item-keys';
import { openWithSecret, sealWithSecret } from './successor-seal';

const sealPurpose = 'tollgate dashboard shown-once secret v1';

export class DynamoShownOnceStore implements ShownOnceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** No condition: the handle is 256 fresh random bits, and a resent put writes the same item. */
  async keep(handle: string, adminId: string, shown: ShownOnce, expiresAtEpoch: number): Promise<void> {
    const key = keys.shownOnce(handle);
    const sealed = sealWithSecret(handle, sealPurpose, JSON.stringify(shown), key.pk);
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...key, adminId, purpose: shown.purpose, sealed, ttl: expiresAtEpoch } }),
    );
  }

  /**
   * Claimed only for its own admin and purpose (another admin's claim would use it up for nothing);
   * TTL deletes late, so the claim compares the clock. The claim removes `sealed` in the same
   * update: a used record holds nothing that opens the secret, in the table or its backups, for
   * the hours TTL may take (behaviour DASH-13).
   */
  async claim(handle: string, adminId: string, purpose: ShownOncePurpose, nowEpoch: number): Promise<ShownOnce | undefined> {
    const key = keys.shownOnce(handle);
    const item = await claimOnce(this.db, this.table, key, nowEpoch, { adminId, purpose }, ['sealed']);
    if (typeof item?.sealed !== 'string') return undefined;
    const opened = openWithSecret(handle, sealPurpose, item.sealed, key.pk);
    return opened === undefined ? undefined : (JSON.parse(opened) as ShownOnce);
  }
}
