/**
 * Daily: deletes the per-IP registration counters of past days (spec 8). TTL would
 * remove them too, but up to days late; the job keeps the table small and predictable.
 */
import { DynamoRegistrationCounter } from '../adapters/dynamodb/registration-counter';
import { getRuntime } from '../runtime/base';
import { getStorage } from '../runtime/storage';

export const handler = async (): Promise<{ deleted: number }> => {
  const { clock, log } = getRuntime();
  const { db, tables } = getStorage();
  const deleted = await new DynamoRegistrationCounter(db, tables.ephemeral).pruneBefore(clock.now());
  log.info('pruned registration counters', { deleted });
  return { deleted };
};
