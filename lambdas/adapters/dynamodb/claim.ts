/**
 * One-time items (pending authorization requests, sign-in challenges, WebAuthn ceremonies) are
 * used up by a claim: a conditional update that sets `consumedBy` to a token of this call. Of two
 * claims only one wins; the DynamoDB client's resend of the winning call (its reply lost) passes as the same
 * claim, where a conditional delete would refuse it and, with it, the legitimate user (behaviour ERR-5).
 * A claimed item reads as absent from then on, and TTL removes it.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { isConditionFailure } from './items';

/** The item as claimed by this call, or undefined when it is absent, expired or claimed by another. */
export async function claimOnce(
  db: DynamoDBDocumentClient,
  table: string,
  key: Record<string, string>,
  nowEpoch: number,
  /** Attributes the item must also hold (`name = value`), else it is left unclaimed. */
  holds: Readonly<Record<string, string>> = {},
  /**
   * Attributes the claim removes in the same update (a secret that must not outlive its one use);
   * the item is then returned as it was before, so the caller still gets them. A resend of the
   * winning call (its reply lost) then finds them gone.
   */
  removes: readonly string[] = [],
): Promise<Record<string, unknown> | undefined> {
  const held = Object.entries(holds);
  const claim = randomUUID();
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: `SET consumedBy = :claim${removes.length > 0 ? ` REMOVE ${removes.map((_, i) => `#removed${i}`).join(', ')}` : ''}`,
        // TTL deletes late: an item past its ttl is treated as gone.
        ConditionExpression: `attribute_exists(pk) AND #ttl > :now AND (attribute_not_exists(consumedBy) OR consumedBy = :claim)${held
          .map((_, i) => ` AND #held${i} = :held${i}`)
          .join('')}`,
        ExpressionAttributeNames: {
          '#ttl': 'ttl',
          ...Object.fromEntries(held.map(([name], i) => [`#held${i}`, name])),
          ...Object.fromEntries(removes.map((name, i) => [`#removed${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':claim': claim,
          ':now': nowEpoch,
          ...Object.fromEntries(held.map(([, value], i) => [`:held${i}`, value])),
        },
        ReturnValues: removes.length > 0 ? 'ALL_OLD' : 'ALL_NEW',
      }),
    );
    return Attributes;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
