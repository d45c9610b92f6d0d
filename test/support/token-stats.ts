/**
 * The statistics items the rollup of the tables' streams keeps (docs/storage-schema.md, "Token
 * statistics"), written directly with the adapter's own layout, so a dashboard test sets the numbers
 * its page must show without running the rollup.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  apiKeyExpiryDayKey,
  serviceCounterAttributes,
  serviceCountsKey,
  tokenStatsAttribute,
  tokenStatsHourKey,
} from '../../lambdas/adapters/dynamodb/token-stats';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import type { TokenRequestType, TokenStatsScope } from '../../lambdas/core/admin/token-stats';
import { getStorage } from '../../lambdas/wiring/storage';

export type HourCounts = Partial<Record<TokenRequestType, { readonly issued?: number; readonly refused?: number }>>;

const put = (item: Record<string, unknown>) =>
  getStorage().db.send(new PutCommand({ TableName: getStorage().tables.activity, Item: item }));

/** One hour's item (`hour` as `yyyy-mm-ddThh`) of the whole service or of one client. */
export async function putTokenStatsHour(scope: TokenStatsScope, hour: string, counts: HourCounts): Promise<void> {
  const item: Record<string, unknown> = { pk: partitions.tokenStats(scope), sk: tokenStatsHourKey(hour) };
  for (const [type, { issued, refused }] of Object.entries(counts) as [TokenRequestType, { issued?: number; refused?: number }][]) {
    if (issued !== undefined) item[tokenStatsAttribute(type, 'issued')] = issued;
    if (refused !== undefined) item[tokenStatsAttribute(type, 'refused')] = refused;
  }
  await put(item);
}

/** The `STATS#COUNTS` item: clients, users and API keys without an expiry. */
export async function putServiceCounters(counters: {
  readonly staticClients: number;
  readonly dynamicClients: number;
  readonly users: number;
  readonly apiKeysWithoutExpiry: number;
}): Promise<void> {
  await put({
    ...serviceCountsKey,
    [serviceCounterAttributes.staticClients]: counters.staticClients,
    [serviceCounterAttributes.dynamicClients]: counters.dynamicClients,
    [serviceCounterAttributes.users]: counters.users,
    [serviceCounterAttributes.apiKeysWithoutExpiry]: counters.apiKeysWithoutExpiry,
  });
}

/** One day (`yyyy-mm-dd`) of the API-key expiry calendar: how many unrevoked keys expire that day. */
export async function putApiKeyExpiryDay(day: string, keys: number): Promise<void> {
  await put({ ...apiKeyExpiryDayKey(day), [serviceCounterAttributes.apiKeysOfDay]: keys });
}

/** `yyyy-mm-ddThh` of the hour `hoursAgo` before `now`. */
export const hourBefore = (now: number, hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString().slice(0, 13);
