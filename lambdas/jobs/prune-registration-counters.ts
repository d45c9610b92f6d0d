/**
 * Daily: deletes the per-IP registration counters of past days (behaviour REG-7). TTL would
 * remove them too, but up to days late; the job keeps the table small and predictable.
 */
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { DynamoRegistrationCounter } from '../adapters/dynamodb/registration-counter';
import { runInRequest } from '../http/request-context';
import { getContainer } from '../wiring/container';
import { getStorage } from '../wiring/storage';

// Labelled with its job's name: its log lines carry it, and the tests check each request it sends
// against the job's declaration (lambdas/routes.ts `jobs`, behaviour IAM-3).
export const handler = withinDeadline(
  (): Promise<{ deleted: number }> =>
    runInRequest({ job: 'PruneRegistrationCounters' }, async () => {
      const { clock, log } = getContainer();
      const { db, tables } = getStorage();
      const deleted = await new DynamoRegistrationCounter(db, tables.ephemeral).pruneBefore(clock.now());
      log.info('pruned registration counters', { deleted });
      return { deleted };
    }),
);
