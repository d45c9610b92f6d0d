import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidRequestError } from '../../core/errors';
import { withoutKeys } from './items';

export interface Page<T> {
  readonly items: T[];
  /** Opaque cursor for the next page; absent on the last page. */
  readonly next?: string;
}

/**
 * One page of a gsi1 partition. The cursor is the last key, base64url-encoded; one that
 * does not belong to this partition is refused as invalid_request instead of reaching
 * DynamoDB (whose ValidationException would otherwise surface as a 500).
 */
export async function queryIndexPage<T>(
  db: DynamoDBDocumentClient,
  table: string,
  gsi1pk: string,
  limit: number,
  cursor?: string,
): Promise<Page<T>> {
  let start: Record<string, unknown> | undefined;
  if (cursor) {
    try {
      start = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      start = undefined;
    }
    const keys = start ? Object.keys(start).sort().join(',') : '';
    if (!start || start.gsi1pk !== gsi1pk || keys !== 'gsi1pk,gsi1sk,pk,sk' || !Object.values(start).every((v) => typeof v === 'string')) {
      throw new InvalidRequestError('The cursor is not valid for this list.');
    }
  }
  const page = await db.send(
    new QueryCommand({
      TableName: table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  const last = page.LastEvaluatedKey;
  return {
    items: (page.Items ?? []).map((item) => withoutKeys<T>(item)),
    ...(last ? { next: Buffer.from(JSON.stringify(last)).toString('base64url') } : {}),
  };
}
