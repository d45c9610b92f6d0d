import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isIP } from 'node:net';
import { updateOnce } from './conditional-writes';
import { isConditionFailure } from './items';
import * as keys from './keys/item-keys';
import * as partitions from './keys/partitions';
import { deleteQueried, gsi1Query } from './pages';

/**
 * The unit the cap counts: an IPv4 address, or an IPv6 /64, which one subscriber usually
 * holds whole (counting single IPv6 addresses would let them rotate past the cap).
 */
export function clientNetwork(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  if (right.some((part) => part.includes('.'))) return ip; // IPv4-mapped: rare at the edge; count as is
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfNextDay = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate() + 1);

export interface CounterResult {
  readonly allowed: boolean;
  /** Seconds until the UTC day ends and the count starts over. */
  readonly retryAfterSeconds: number;
}

/**
 * Per-IP, per-UTC-day registration counters (behaviour REG-6, REG-7) in the ephemeral table. The
 * increment is one conditional update, so under any concurrency no more than `cap`
 * attempts are let through. TTL removes old counters; a daily job prunes them too.
 */
export class DynamoRegistrationCounter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async hit(ip: string, nowMs: number, cap: number): Promise<CounterResult> {
    const network = clientNetwork(ip);
    const today = day(nowMs);
    const resetAt = startOfNextDay(nowMs);
    const retryAfterSeconds = Math.ceil((resetAt - nowMs) / 1000);
    try {
      // Once per request (behaviour ERR-5): an ADD resent after a lost reply would count twice.
      await updateOnce(this.db, {
        TableName: this.table,
        Key: keys.registrationCounter(today, network),
        UpdateExpression: 'SET gsi1pk = :day, gsi1sk = :ip, #ttl = :ttl ADD #count :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':day': partitions.registrationCountersOfDay(today),
          ':ip': network,
          ':ttl': Math.floor(resetAt / 1000) + 86_400,
          ':one': 1,
          ':cap': cap,
        },
      });
      return { allowed: true, retryAfterSeconds };
    } catch (error) {
      if (isConditionFailure(error)) return { allowed: false, retryAfterSeconds };
      throw error;
    }
  }

  /** Deletes the counters of the `days` UTC days before today; returns how many. */
  async pruneBefore(nowMs: number, days = 7): Promise<number> {
    let deleted = 0;
    for (let back = 1; back <= days; back++) {
      deleted += await deleteQueried(this.db, gsi1Query(this.table, partitions.registrationCountersOfDay(day(nowMs - back * 86_400_000))));
    }
    return deleted;
  }
}
