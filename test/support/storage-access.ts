/**
 * What a DynamoDB request asks of IAM: the action IAM authorizes, the resource (a table or one of
 * its indexes) and the partition key values `dynamodb:LeadingKeys` sees. A transaction is
 * authorized item by item, as its underlying PutItem, UpdateItem, DeleteItem or ConditionCheckItem
 * (there is no IAM action of its own); a batch is authorized as the batch action with every key
 * of the batch among its leading keys; a query by its table or index and the partition key value
 * of its key condition (an index's own partition key on an index).
 *
 * test/support/record-storage-access.ts records these for every request a handler test makes, and
 * checks them against the route row's declared access (lambdas/routes.ts `storage`).
 */
import { tableDefinitions, tableNames } from '../../lambdas/adapters/dynamodb/table-definitions';
import type { TableName } from '../../lambdas/routes';

export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem';

/** One authorization IAM makes: an action on a table (or index) for one partition key value. */
export interface StorageAccess {
  readonly table: TableName;
  /** `gsi1` for a query on the index; absent for the table itself. */
  readonly index?: string;
  readonly action: DynamoAction;
  /** The partition key value (of the index, for an index query); absent for a Scan. */
  readonly key?: string;
}

type Item = Record<string, unknown>;

/** The logical table of a physical name: the current variables, else the name's ending (`<prefix><logical>`). */
export function logicalTable(physical: string, env: Readonly<Record<string, string | undefined>> = process.env): TableName {
  const named = tableNames.find((name) => env[tableDefinitions[name].envVar] === physical);
  if (named) return named;
  const byEnding = tableNames.find((name) => physical.endsWith(name));
  if (!byEnding) throw new Error(`table ${physical} is none of ${tableNames.join(', ')}`);
  return byEnding;
}

const partitionKeyOf = (item: unknown): string => {
  const pk = (item as Item | undefined)?.pk;
  if (typeof pk !== 'string') throw new Error(`an item or key without a string pk: ${JSON.stringify(item)}`);
  return pk;
};

/** The partition key value a query's key condition names (`pk = :v` or `#n = :v`, first term). */
function queryKey(input: Item, partitionKey: string): string {
  const condition = String(input.KeyConditionExpression ?? '');
  const match = /^\s*\(?\s*(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/.exec(condition);
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const name = match?.[1]?.startsWith('#') ? names[match[1]] : match?.[1];
  if (!match || name !== partitionKey)
    throw new Error(`a query whose key condition does not start with ${partitionKey} = :value: ${condition}`);
  const value = ((input.ExpressionAttributeValues ?? {}) as Item)[match[2]!];
  if (typeof value !== 'string') throw new Error(`a query on ${partitionKey} with no string value: ${condition}`);
  return value;
}

/**
 * The accesses of one document-client command (`GetCommand`, `TransactWriteCommand`, ...), its
 * input as the code passed it (plain values, before marshalling).
 */
export function accessesOf(command: string, input: Item, tableOf: (physical: string) => TableName = logicalTable): StorageAccess[] {
  const operation = command.replace(/Command$/, '');
  const table = () => tableOf(String(input.TableName));
  switch (operation) {
    case 'Get':
      return [{ table: table(), action: 'GetItem', key: partitionKeyOf(input.Key) }];
    case 'Put':
      return [{ table: table(), action: 'PutItem', key: partitionKeyOf(input.Item) }];
    case 'Update':
      return [{ table: table(), action: 'UpdateItem', key: partitionKeyOf(input.Key) }];
    case 'Delete':
      return [{ table: table(), action: 'DeleteItem', key: partitionKeyOf(input.Key) }];
    case 'Query': {
      const name = table();
      const index = input.IndexName === undefined ? undefined : String(input.IndexName);
      const definition = tableDefinitions[name];
      const partitionKey = index ? definition.globalIndexes.find((i) => i.indexName === index)?.partitionKey : definition.partitionKey;
      if (!partitionKey) throw new Error(`no index ${index} on ${name}`);
      return [{ table: name, ...(index ? { index } : {}), action: 'Query', key: queryKey(input, partitionKey) }];
    }
    case 'Scan':
      return [{ table: table(), ...(input.IndexName ? { index: String(input.IndexName) } : {}), action: 'Scan' }];
    case 'TransactWrite':
      return ((input.TransactItems ?? []) as Item[]).map((entry) => {
        const [kind, body] = Object.entries(entry)[0] as [string, Item];
        const target = tableOf(String(body.TableName));
        if (kind === 'Put') return { table: target, action: 'PutItem', key: partitionKeyOf(body.Item) };
        if (kind === 'Update') return { table: target, action: 'UpdateItem', key: partitionKeyOf(body.Key) };
        if (kind === 'Delete') return { table: target, action: 'DeleteItem', key: partitionKeyOf(body.Key) };
        if (kind === 'ConditionCheck') return { table: target, action: 'ConditionCheckItem', key: partitionKeyOf(body.Key) };
        throw new Error(`a transaction item of kind ${kind}`);
      });
    case 'TransactGet':
      return ((input.TransactItems ?? []) as Item[]).map((entry) => {
        const body = (entry as { Get: Item }).Get;
        return { table: tableOf(String(body.TableName)), action: 'GetItem', key: partitionKeyOf(body.Key) };
      });
    case 'BatchGet':
      return Object.entries((input.RequestItems ?? {}) as Record<string, { Keys: Item[] }>).flatMap(([physical, request]) =>
        request.Keys.map((key) => ({ table: tableOf(physical), action: 'BatchGetItem' as const, key: partitionKeyOf(key) })),
      );
    case 'BatchWrite':
      return Object.entries((input.RequestItems ?? {}) as Record<string, Item[]>).flatMap(([physical, requests]) =>
        requests.map((request) => {
          const put = (request as { PutRequest?: { Item: Item } }).PutRequest;
          const remove = (request as { DeleteRequest?: { Key: Item } }).DeleteRequest;
          return { table: tableOf(physical), action: 'BatchWriteItem' as const, key: partitionKeyOf(put ? put.Item : remove?.Key) };
        }),
      );
    default:
      throw new Error(`DynamoDB ${command}: not a data-plane command a route may send`);
  }
}
