/** Shared item helpers: storage keys stay here, never in domain records. */
import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';

/** One entry of a TransactWriteItems request. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const storageAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'ttl', 'writeToken', 'revision']);

/** Drops the storage keys of an item, leaving the domain record. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !storageAttributes.has(name))) as T;
}

/** One-time values (codes, refresh tokens, session ids) are stored only as this digest. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** DynamoDB refuses partition keys over 2048 bytes (ValidationException); such an id cannot be stored, so it is absent. */
export function keyFits(partitionKey: string): boolean {
  return Buffer.byteLength(partitionKey, 'utf8') <= 2048;
}

export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** `name` still equals `value`, absent counting as 0 (how credentialVersion and passkeyGeneration are stored). */
export const isStill = (name: string, placeholder: string, value: number): string =>
  value === 0 ? `(attribute_not_exists(${name}) OR ${name} = ${placeholder})` : `${name} = ${placeholder}`;

/** The per-item codes of a cancelled transaction (`ConditionalCheckFailed`, `TransactionConflict`, `None`), in item order. */
export const cancellationCodes = (error: unknown): string[] =>
  (error as { name?: string }).name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None')
    : [];

/**
 * Whether a conditional write failed against this very request's earlier attempt: the AWS SDK
 * resends a write whose reply was lost, and the resend fails its condition against the first
 * (behaviour ERR-5). Such a write stores a per-request `writeToken` and asks for
 * ReturnValuesOnConditionCheckFailure ALL_OLD; the item it failed against tells.
 */
export function isOwnWrite(error: unknown, writeToken: string): boolean {
  if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') return false;
  return (error as { Item?: { writeToken?: { S?: string } } }).Item?.writeToken?.S === writeToken;
}

/** TTL deletes up to days late: an item whose `ttl` has passed is treated as absent. */
export function live<T extends Record<string, unknown>>(item: T | undefined, nowEpoch: number): T | undefined {
  if (!item) return undefined;
  const ttl = item.ttl;
  return typeof ttl === 'number' && ttl <= nowEpoch ? undefined : item;
}
