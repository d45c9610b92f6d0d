/**
 * One-time identifiers (ephemeral table, `USED#<purpose>#<digest>`): a conditional put that only the
 * first use wins. The item lives until the identifier's own expiry (TTL, plus `ttl` compared on
 * write since TTL deletes late), after which the issuer's `exp` check refuses the token anyway.
 * The DynamoDB client's resend of a put whose reply was lost meets its own `writeToken`: that is
 * the same use, not a replay (behaviour ERR-5).
 */
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { Clock, SingleUseIds, SingleUsePurpose } from '../../core/ports';
import { isConditionFailure, isOwnWrite } from './items';
import * as keys from './keys/item-keys';

export class DynamoSingleUseIds implements SingleUseIds {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly clock: Clock,
  ) {}

  async use(purpose: SingleUsePurpose, issuer: string, jti: string, expiresAtEpoch: number): Promise<boolean> {
    const writeToken = randomUUID();
    const nowEpoch = Math.floor(this.clock.now() / 1000);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.usedIdentifier(purpose, issuer, jti), writeToken, ttl: Math.max(expiresAtEpoch, nowEpoch + 1) },
          ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':now': nowEpoch },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return isOwnWrite(error, writeToken);
    }
  }
}
