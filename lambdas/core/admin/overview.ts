/**
 * The dashboard's overview and a client's chart (behaviour DASH-7, DASH-8): the service's counters
 * and the token requests of the last 24 hours (by hour) and the last 7 days (by UTC day), summed
 * from the hourly rollup items (token-stats.ts), so a page view reads at most 168 of them and
 * never a token activity row.
 */
import { activityRequestTypes } from './activity';
import { type SigningKeyStatus, type SigningKeyTimesReader, signingKeyStatus } from './signing-key';
import type {
  HourlyTokenCounts,
  ServiceCounts,
  ServiceCountsReader,
  TokenRequestType,
  TokenStatsReader,
  TokenStatsScope,
} from './token-stats';

export interface TokenTotals {
  readonly issued: number;
  readonly refused: number;
}

/** One bar of a chart: an hour (`yyyy-mm-ddThh`) or a UTC day (`yyyy-mm-dd`). */
export interface ActivityBucket extends TokenTotals {
  readonly start: string;
}

export interface RequestTypeTotals extends TokenTotals {
  readonly requestType: TokenRequestType;
}

export interface ActivityWindow {
  /** Oldest first, one per hour or day of the window, the empty ones included. */
  readonly buckets: readonly ActivityBucket[];
  /** Every grant type and the API-key exchange, 0 when none was asked for; `unknown` only when it has requests. */
  readonly byRequestType: readonly RequestTypeTotals[];
  readonly total: TokenTotals;
}

export interface TokenActivity {
  /** The 24 hours ending with the current one (which is still counting). */
  readonly lastDay: ActivityWindow;
  /** The 7 UTC days ending today (today still counting). */
  readonly lastWeek: ActivityWindow;
}

export interface Overview {
  readonly counts: ServiceCounts;
  readonly activity: TokenActivity;
  /** Undefined until the rotation job has recorded the key set's times. */
  readonly signingKey?: SigningKeyStatus;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
const hourAt = (ms: number) => new Date(ms).toISOString().slice(0, 13);
const dayAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function windowOf(hours: readonly HourlyTokenCounts[], starts: readonly string[], startOf: (hour: string) => string): ActivityWindow {
  const buckets = new Map(starts.map((start) => [start, { issued: 0, refused: 0 }]));
  const byType = new Map<TokenRequestType, { issued: number; refused: number }>(
    activityRequestTypes.filter((type) => type !== 'unknown').map((type) => [type, { issued: 0, refused: 0 }]),
  );
  for (const { hour, counts } of hours) {
    const bucket = buckets.get(startOf(hour));
    if (!bucket) continue;
    for (const [type, count] of Object.entries(counts) as [TokenRequestType, TokenTotals][]) {
      bucket.issued += count.issued;
      bucket.refused += count.refused;
      const totals = byType.get(type) ?? byType.set(type, { issued: 0, refused: 0 }).get(type)!;
      totals.issued += count.issued;
      totals.refused += count.refused;
    }
  }
  const all = [...buckets.values()];
  return {
    buckets: starts.map((start) => ({ start, ...buckets.get(start)! })),
    byRequestType: [...byType].map(([requestType, totals]) => ({ requestType, ...totals })),
    total: { issued: all.reduce((sum, b) => sum + b.issued, 0), refused: all.reduce((sum, b) => sum + b.refused, 0) },
  };
}

/** One query covers both windows: from the first of the 7 days to the end of the current hour (at most 168 items). */
export async function tokenActivity(stats: TokenStatsReader, scope: TokenStatsScope, now: number): Promise<TokenActivity> {
  const currentHour = Date.parse(`${hourAt(now)}:00:00Z`);
  const today = Date.parse(`${dayAt(now)}T00:00:00Z`);
  const lastHours = Array.from({ length: 24 }, (_, i) => hourAt(currentHour - (23 - i) * hourMs));
  const lastDays = Array.from({ length: 7 }, (_, i) => dayAt(today - (6 - i) * dayMs));
  const [from, to] = [`${lastDays[0]}T00`, hourAt(currentHour + hourMs)];
  // The reader's range is the port's promise; held here too, so the windows never count a later hour.
  const hours = (await stats.hourly(scope, from, to)).filter(({ hour }) => hour >= from && hour < to);
  return {
    lastDay: windowOf(hours, lastHours, (hour) => hour),
    lastWeek: windowOf(hours, lastDays, (hour) => hour.slice(0, 10)),
  };
}

export async function serviceOverview(
  deps: {
    readonly tokenStats: TokenStatsReader;
    readonly serviceCounts: ServiceCountsReader;
    readonly signingKeyTimes: SigningKeyTimesReader;
  },
  now: number,
): Promise<Overview> {
  const [counts, activity, keyTimes] = await Promise.all([
    deps.serviceCounts.counts(dayAt(now)),
    tokenActivity(deps.tokenStats, { kind: 'service' }, now),
    deps.signingKeyTimes.current(),
  ]);
  return { counts, activity, ...(keyTimes ? { signingKey: signingKeyStatus(keyTimes, now) } : {}) };
}
