/**
 * Read-sharded copies of a client record. Every token request, authorization step and bearer
 * check reads its client strongly consistently (a deletion counts at once, behaviour ADMIN-16),
 * and one partition key serves about 3,000 such reads a second. So the record lives
 * under `clientCopyCount` partition keys: the record itself (copy 0, `CLIENT#<id>`, the only
 * one with the gsi1 list attributes, so lists never show a copy) and copies 1..n-1
 * (`COPY<n>#<id>`). Every write replaces all of them in one transaction; a reader reads one
 * at random. docs/storage-schema.md gives the arithmetic.
 */
import * as keys from './keys/item-keys';

/** 8 × 3,000 strongly consistent reads a second: 24,000 per client, over twice the 10,000 token requests a second one client is sized for. */
export const clientCopyCount = 8;

/** The keys of the record (copy 0) and every copy, in copy order (keys/item-keys.ts `clientCopy`). */
export function allClientCopyKeys(clientId: string): { readonly pk: string; readonly sk: string }[] {
  return Array.from({ length: clientCopyCount }, (_, copy) => keys.clientCopy(clientId, copy));
}

export const randomClientCopy = (): number => Math.floor(Math.random() * clientCopyCount);

/** Attributes of the record alone: the gsi1 list entry, and `writeToken` (one create's own). */
const recordOnly = new Set(['gsi1pk', 'gsi1sk', 'writeToken']);

/** The stored items of every copy of `record` (an item with copy 0's key and attributes), in copy order. */
export function clientCopyItems(record: Record<string, unknown>, clientId: string): Record<string, unknown>[] {
  const body = Object.fromEntries(Object.entries(record).filter(([name]) => !recordOnly.has(name)));
  return allClientCopyKeys(clientId).map((key, copy) => (copy === 0 ? { ...record, ...key } : { ...body, ...key }));
}
