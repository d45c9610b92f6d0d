/** Shared item helpers: storage keys stay here, never in domain records. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** One entry of a TransactWriteItems request. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const storageAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'ttl', 'writeToken', 'revision']);

/** Drops the storage keys of an item, leaving the domain record. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !storageAttributes.has(name))) as T;
}

/** DynamoDB refuses partition keys over 2048 bytes (ValidationException); such an id cannot be stored, so it is absent. */
export function keyFits(partitionKey: string): boolean {
  return Buffer.byteLength(partitionKey, 'utf8') <= 2048;
}

const nameOf = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/**
 * Whether a conditional write was refused: a single write's condition failed
 * (ConditionalCheckFailedException), or a transaction was cancelled (TransactionCanceledException:
 * a condition of one of its items, or a conflict with another transaction; nothing was written).
 */
export function isConditionFailure(error: unknown): boolean {
  const name = nameOf(error);
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** `name` still equals `value`, absent counting as 0 (how credentialVersion and passkeyGeneration are stored). */
export const isStill = (name: string, placeholder: string, value: number): string =>
  value === 0 ? `(attribute_not_exists(${name}) OR ${name} = ${placeholder})` : `${name} = ${placeholder}`;

/**
 * One item's outcome in a cancelled transaction: its code (`ConditionalCheckFailed`,
 * `TransactionConflict`, `None`) and, when the item asked for ReturnValuesOnConditionCheckFailure
 * ALL_OLD, the stored item its condition failed against.
 */
export interface CancellationReason {
  readonly code: string;
  readonly item?: Record<string, unknown>;
}

/** The per-item reasons of a cancelled transaction, in item order; none for any other error. */
export function cancellationReasons(error: unknown): CancellationReason[] {
  if (nameOf(error) !== 'TransactionCanceledException') return [];
  const reasons = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => ({ code: reason.Code ?? 'None', ...(reason.Item ? { item: unmarshall(reason.Item) } : {}) }));
}

/** The per-item codes of a cancelled transaction, in item order; none for any other error. */
export const cancellationCodes = (error: unknown): string[] => cancellationReasons(error).map((reason) => reason.code);

/**
 * Whether nothing was written only because another transaction held an item: a single write's
 * TransactionConflictException, or a transaction cancelled for a conflict and for no condition.
 * Trying again with a new request token is safe.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (nameOf(error) === 'TransactionConflictException') return true;
  const codes = cancellationCodes(error);
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

/**
 * The stored item a refused write failed against, when it asked for
 * ReturnValuesOnConditionCheckFailure ALL_OLD: a single write's, or a transaction's first item's.
 */
export function failedAgainst(error: unknown): Record<string, unknown> | undefined {
  if (nameOf(error) === 'ConditionalCheckFailedException') {
    const item = (error as { Item?: Record<string, AttributeValue> }).Item;
    return item ? unmarshall(item) : undefined;
  }
  return cancellationReasons(error)[0]?.item;
}

/**
 * Whether a conditional write failed against this very request's earlier attempt: the AWS SDK
 * resends a write whose reply was lost, and the resend fails its condition against the first
 * (behaviour ERR-5). Such a write stores a per-request `writeToken` (in a transaction, on its
 * first item) and asks for ReturnValuesOnConditionCheckFailure ALL_OLD; the item it failed
 * against tells.
 */
export function isOwnWrite(error: unknown, writeToken: string): boolean {
  return failedAgainst(error)?.writeToken === writeToken;
}

/** An item that ends when its value expires: TTL removes it then (days late, so readers compare `expiresAtEpoch` too). */
export function expiringItem<V extends { readonly expiresAtEpoch: number }>(key: { readonly pk: string; readonly sk: string }, value: V) {
  return { ...key, ...value, ttl: value.expiresAtEpoch };
}

/** Puts an expiring item under a fresh random key (256 bits): no condition is needed, and a resend writes the same item. */
export async function putExpiring(
  db: DynamoDBDocumentClient,
  table: string,
  key: { readonly pk: string; readonly sk: string },
  value: { readonly expiresAtEpoch: number },
): Promise<void> {
  await db.send(new PutCommand({ TableName: table, Item: expiringItem(key, value) }));
}

/** TTL deletes up to days late: an item whose `ttl` has passed is treated as absent. */
export function live<T extends Record<string, unknown>>(item: T | undefined, nowEpoch: number): T | undefined {
  if (!item) return undefined;
  const ttl = item.ttl;
  return typeof ttl === 'number' && ttl <= nowEpoch ? undefined : item;
}
