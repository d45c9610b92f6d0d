/**
 * DynamoDB grants at the item level (behaviour IAM-1, IAM-2): a function gets exactly the actions
 * its row declares (lambdas/routes.ts `storage`), each on the one table or index of the key family,
 * and only for partition keys of that family (`dynamodb:LeadingKeys`, the patterns of
 * lambdas/adapters/dynamodb/keys/families.ts `keyFamilies`). No Scan, no table-wide write, no action a code
 * path does not send.
 *
 * `ForAllValues:StringLike`: every key of the request must match one of the statement's patterns
 * (a BatchGetItem or BatchWriteItem carries all its keys; a transaction is authorized item by item
 * as PutItem, UpdateItem, DeleteItem or ConditionCheckItem). On an index, the leading key is the
 * index's own partition key (`gsi1pk`), the one value the query names.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { type KeyFamilyName, keyFamilies } from '../lambdas/adapters/dynamodb/keys/families';
import { type StorageAccess, type StorageVerb, type TableName, verbsOf } from '../lambdas/routes';

/** The IAM action of each verb. */
export const storageActions: Readonly<Record<StorageVerb, string>> = {
  get: 'dynamodb:GetItem',
  'batch-get': 'dynamodb:BatchGetItem',
  query: 'dynamodb:Query',
  put: 'dynamodb:PutItem',
  update: 'dynamodb:UpdateItem',
  delete: 'dynamodb:DeleteItem',
  check: 'dynamodb:ConditionCheckItem',
  'batch-write': 'dynamodb:BatchWriteItem',
};

/** The actions that only read: a function holding no other needs no encrypting use of a table's key. */
export const readActions: ReadonlySet<string> = new Set([
  storageActions.get,
  storageActions['batch-get'],
  storageActions.query,
  storageActions.check,
]);

/** What one declaration grants: per table or index, per leading-key pattern, the actions. */
export interface StorageGrant {
  readonly table: TableName;
  readonly index?: string;
  readonly actions: readonly string[];
  readonly leadingKeys: readonly string[];
}

/**
 * The grants of a declaration, one per table or index and set of actions (keys with the same
 * actions share a statement), sorted so the template is stable.
 */
export function storageGrants(access: StorageAccess): StorageGrant[] {
  const byResource = new Map<string, { table: TableName; index?: string; actionsByKey: Map<string, Set<string>> }>();
  for (const [family, declared] of Object.entries(access) as [KeyFamilyName, StorageAccess[KeyFamilyName]][]) {
    const where = keyFamilies[family];
    if (!where) throw new Error(`storage: ${family} is not a key family (lambdas/adapters/dynamodb/keys/families.ts)`);
    const index = 'index' in where ? where.index : undefined;
    const resource = `${where.table}/${index ?? ''}`;
    const entry = byResource.get(resource) ?? { table: where.table, ...(index ? { index } : {}), actionsByKey: new Map() };
    byResource.set(resource, entry);
    for (const verb of verbsOf(declared)) {
      if (index && verb !== 'query') throw new Error(`storage: ${family} is an index; it can only be queried (got ${verb})`);
      for (const key of where.leadingKeys) {
        const actions = entry.actionsByKey.get(key) ?? new Set<string>();
        actions.add(storageActions[verb]);
        entry.actionsByKey.set(key, actions);
      }
    }
  }
  const grants: StorageGrant[] = [];
  for (const resource of [...byResource.keys()].sort()) {
    const { table, index, actionsByKey } = byResource.get(resource)!;
    const keysByActions = new Map<string, string[]>();
    for (const [key, actions] of actionsByKey) {
      if (actions.size === 0) continue;
      const signature = [...actions].sort().join(' ');
      keysByActions.set(signature, [...(keysByActions.get(signature) ?? []), key]);
    }
    for (const signature of [...keysByActions.keys()].sort()) {
      grants.push({ table, ...(index ? { index } : {}), actions: signature.split(' '), leadingKeys: keysByActions.get(signature)!.sort() });
    }
  }
  return grants;
}

/** The grants as IAM statements on the given tables. */
export function storageStatements(access: StorageAccess, tables: Readonly<Record<TableName, dynamodb.ITableV2>>): iam.PolicyStatement[] {
  return storageGrants(access).map(
    (grant) =>
      new iam.PolicyStatement({
        actions: [...grant.actions],
        resources: [grant.index ? `${tables[grant.table].tableArn}/index/${grant.index}` : tables[grant.table].tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...grant.leadingKeys] } },
      }),
  );
}

/** The tables a declaration touches. */
export function tablesOf(access: StorageAccess): TableName[] {
  return [...new Set(Object.keys(access).map((family) => keyFamilies[family as KeyFamilyName].table))].sort();
}
