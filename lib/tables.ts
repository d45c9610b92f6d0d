/**
 * The DynamoDB tables, built from the same definitions the local bootstrap reads.
 * Names are left to CloudFormation: retained tables with fixed names would block
 * a redeploy of a deleted stack, and the stack outputs tell the generated names.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { tableDefinitions, tableNames } from '../lambdas/adapters/dynamodb/table-definitions';
import type { TableName } from '../lambdas/routes';

const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

/** Logical table name as used in construct ids and output names: `main` → `Main`. */
export const tableId = (name: TableName): string => name.charAt(0).toUpperCase() + name.slice(1);

/** `encryptionKey`: behaviour CUSTODY-2's customer-managed key; without it, DynamoDB's AWS managed key. */
export function createTables(scope: Construct, encryptionKey?: kms.IKey): Record<TableName, dynamodb.TableV2> {
  const entries = tableNames.map((name) => {
    const definition = tableDefinitions[name];
    const table = new dynamodb.TableV2(scope, `${tableId(name)}Table`, {
      partitionKey: key(definition.partitionKey),
      sortKey: key(definition.sortKey),
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: definition.ttlAttribute,
      // The audit entries' append-only copy (lib/audit-archive.ts, behaviour IAM-4) and the statistics
      // rollup (lib/statistics-rollup.ts, behaviour LOG-10, LOG-11) read the streams.
      ...(definition.stream ? { dynamoStream: dynamodb.StreamViewType[definition.stream] } : {}),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      // Holds users, clients and keys: deleting the stack must never delete them.
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: definition.globalIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
    });
    if (encryptionKey) {
      // TableEncryptionV2.customerManagedKey needs the stack's region at synth, and synth must work
      // without one: the one replica (this region) names the key itself. Grants add the key's use
      // (AuthorizationServer.grantTables), which the L2 table no longer knows about.
      (table.node.defaultChild as dynamodb.CfnGlobalTable).addPropertyOverride('Replicas.0.SSESpecification', {
        KMSMasterKeyId: encryptionKey.keyArn,
      });
    }
    return [name, table] as const;
  });
  return Object.fromEntries(entries) as Record<TableName, dynamodb.TableV2>;
}
