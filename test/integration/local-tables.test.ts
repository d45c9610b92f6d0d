/**
 * The local bootstrap keeps existing tables and adds indexes defined since they were made (the
 * activity table's gsi1, the audit log by day), so a DATA_DIR from an older version still serves
 * the audit log, and the streams the statistics rollup reads.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { ensureTables, physicalTableNames } from '../../lambdas/local/tables';

it('adds the activity gsi1 to an activity table created without it, keeping the table', async () => {
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const names = physicalTableNames(`old-${randomUUID().slice(0, 8)}-`);
  await client.send(
    new CreateTableCommand({
      TableName: names.activity,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  const before = await client.send(new DescribeTableCommand({ TableName: names.activity }));
  await ensureTables(client, names);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: names.activity }));
  expect(Table?.CreationDateTime).toEqual(before.Table?.CreationDateTime);
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['gsi1']);
  // Behaviour LOG-10: the statistics rollup's stream poller reads it.
  expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  const main = await client.send(new DescribeTableCommand({ TableName: names.main }));
  expect(main.Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  client.destroy();
});
