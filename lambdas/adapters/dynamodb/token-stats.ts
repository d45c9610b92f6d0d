/**
 * Hourly token counts in the activity table (docs/storage-schema.md, "Token statistics"): one item
 * per hour for the whole service (`STATS#SERVICE`) and per client (`STATS#CLIENT#<clientId>`),
 * sort key `HOUR#<yyyy-mm-ddThh>`, one number attribute per request type and outcome
 * (`client_credentials#issued`, `api key#refused`, ...). Written by the rollup of the activity
 * table's stream; a page view reads at most one item per hour it shows.
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HourlyTokenCounts, TokenRequestType, TokenStatsReader, TokenStatsScope } from '../../core/admin/token-stats';
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
