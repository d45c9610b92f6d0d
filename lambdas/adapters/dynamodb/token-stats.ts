/**
 * Hourly token counts and the service's counters in the activity table (docs/storage-schema.md, "Token statistics"): one item
 * per hour for the whole service (`STATS#SERVICE`) and per client (`STATS#CLIENT#<clientId>`),
 * sort key `HOUR#<yyyy-mm-ddThh>`, one number attribute per request type and outcome
 * (`client_credentials#issued`, `api key#refused`, ...). Written by the rollup of the activity
 * table's stream; a page view reads at most one item per hour it shows.
 */
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  HourlyTokenCounts,
  ServiceCounts,
  ServiceCountsReader,
  TokenRequestType,
  TokenStatsReader,
  TokenStatsScope,
} from '../../core/admin/token-stats';
import * as partitions from './keys/partitions';

export const tokenStatsHourKey = (hour: string) => `HOUR#${hour}`;

/** The attribute holding one request type's count of one outcome. */
export const tokenStatsAttribute = (requestType: TokenRequestType, outcome: 'issued' | 'refused') => `${requestType}#${outcome}`;

const countAttribute = /^(.+)#(issued|refused)$/;

export function hourlyCountsOf(item: Record<string, unknown>): HourlyTokenCounts {
  const counts: Partial<Record<TokenRequestType, { issued: number; refused: number }>> = {};
  for (const [name, value] of Object.entries(item)) {
    const match = countAttribute.exec(name);
    if (!match || typeof value !== 'number' || value <= 0) continue;
    const type = match[1] as TokenRequestType;
    const entry = (counts[type] ??= { issued: 0, refused: 0 });
    entry[match[2] as 'issued' | 'refused'] = value;
  }
  return { hour: String(item.sk).slice('HOUR#'.length), counts };
}

export class DynamoTokenStats implements TokenStatsReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async hourly(scope: TokenStatsScope, fromHour: string, toHour: string): Promise<readonly HourlyTokenCounts[]> {
    const hours: HourlyTokenCounts[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      // `HOUR#<to>` sorts after every hour before it and before none after: [from, to) with `< :to`.
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': partitions.tokenStats(scope),
            ':from': tokenStatsHourKey(fromHour),
            ':to': tokenStatsHourKey(toHour),
          },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) if (String(item.sk) < tokenStatsHourKey(toHour)) hours.push(hourlyCountsOf(item));
      start = page.LastEvaluatedKey;
    } while (start);
    return hours;
  }
}

/** The counter attributes of the `STATS#COUNTS` item (and `apiKeys` on each `STATS#KEYEXPIRY` day). */
export const serviceCounterAttributes = {
  staticClients: 'clients#static',
  dynamicClients: 'clients#dynamic',
  users: 'users',
  apiKeysWithoutExpiry: 'apiKeys#noExpiry',
  apiKeysOfDay: 'apiKeys',
} as const;

export const serviceCountsKey = { pk: partitions.serviceCounts, sk: 'COUNTS' };
export const apiKeyExpiryDayKey = (day: string) => ({ pk: partitions.apiKeyExpiryCalendar, sk: `DAY#${day}` });

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** A counter below zero is a rollup that saw a removal before its creation (a stream replayed out of order): show 0. */
const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);

export class DynamoServiceCounts implements ServiceCountsReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async counts(today: string): Promise<ServiceCounts> {
    const [counters, days] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.table, Key: serviceCountsKey })),
      this.expiryDaysFrom(today),
    ]);
    const item = counters.Item ?? {};
    // Behaviour LOG-11: within 30 days is today and the 29 days after it; a key expiring today
    // counts as active all day, as the calendar knows days, not times.
    const soonEnd = addDays(today, 30);
    const dated = days.reduce((sum, day) => sum + day.keys, 0);
    return {
      clients: {
        static: count(item[serviceCounterAttributes.staticClients]),
        dynamic: count(item[serviceCounterAttributes.dynamicClients]),
      },
      users: count(item[serviceCounterAttributes.users]),
      activeApiKeys: count(item[serviceCounterAttributes.apiKeysWithoutExpiry]) + dated,
      apiKeysExpiringSoon: days.filter((day) => day.day < soonEnd).reduce((sum, day) => sum + day.keys, 0),
    };
  }

  /** The calendar from `today` on: one small item per day on which some unrevoked key expires. */
  private async expiryDaysFrom(today: string): Promise<{ day: string; keys: number }[]> {
    const days: { day: string; keys: number }[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND sk >= :today',
          ExpressionAttributeValues: { ':pk': partitions.apiKeyExpiryCalendar, ':today': apiKeyExpiryDayKey(today).sk },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? [])
        days.push({ day: String(item.sk).slice('DAY#'.length), keys: count(item[serviceCounterAttributes.apiKeysOfDay]) });
      start = page.LastEvaluatedKey;
    } while (start);
    return days;
  }
}
