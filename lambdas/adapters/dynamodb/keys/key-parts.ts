/** The parts keys are made of, shared by the builders of keys/ (docs/storage-schema.md). */
import { createHash } from 'node:crypto';

/** One-time values (codes, refresh tokens, session ids, challenges) are stored only as this digest. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** A sort key that orders a partition by time: ISO times sort as strings, the id tells apart two of one millisecond. */
export const byTime = (at: string, id: string): string => `${at}#${id}`;
