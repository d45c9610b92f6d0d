import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
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

/** Every page of a query, one array of items at a time (a single Query stops at 1 MB). */
export async function* queryPages(db: DynamoDBDocumentClient, input: QueryCommandInput): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(db, input)) items.push(...page);
  return items;
}

/** Deletes every item the query finds (by its pk/sk); returns how many. */
export async function deleteQueried(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let deleted = 0;
  for await (const page of queryPages(db, input)) {
    await Promise.all(page.map((item) => db.send(new DeleteCommand({ TableName: input.TableName, Key: { pk: item.pk, sk: item.sk } }))));
    deleted += page.length;
  }
  return deleted;
}
