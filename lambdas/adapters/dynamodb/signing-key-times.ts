/**
 * The signing key set's kids and times (core/admin/signing-key.ts): one item of the main table,
 * put by the rotation job after each run, read by the dashboard's overview. No key material.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SigningKeyTimes, SigningKeyTimesReader, SigningKeyTimesRecorder } from '../../core/admin/signing-key';
import * as keys from './keys/item-keys';

export class DynamoSigningKeyTimes implements SigningKeyTimesReader, SigningKeyTimesRecorder {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async current(): Promise<SigningKeyTimes | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.signingKeyTimes() }));
    if (!Item || typeof Item.currentKid !== 'string' || typeof Item.activatedAt !== 'string') return undefined;
    const { pk: _pk, sk: _sk, ...times } = Item;
    return times as SigningKeyTimes;
  }

  async record(times: SigningKeyTimes): Promise<void> {
    // A plain put: each run records the whole set as it left it, so a retried or repeated run writes the same.
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...keys.signingKeyTimes(), ...times } }));
  }
}
