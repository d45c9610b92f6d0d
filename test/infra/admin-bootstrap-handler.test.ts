/**
 * The deploy-time admin bootstrap against DynamoDB Local (fresh tables per test file):
 * seeds once with the given environment ids, writes the credentials only to the secret,
 * and the stored password verifies against its Argon2id hash.
 */
import { GetSecretValueCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { createDynamoClient } from '../../lambdas/adapters/dynamodb/client';
import { cryptoRandom, systemClock } from '../../lambdas/adapters/system';
import { createHandler, type AdminBootstrapProperties, type AdminCredentials } from '../../lambdas/custom-resources/admin-bootstrap';
import { ensureTables, physicalTableNames } from '../../lambdas/local/tables';
import { customResourceEvent } from '../support/custom-resource-events';

const tables = physicalTableNames(`boot-${randomUUID().slice(0, 8)}-`);
const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT! });
const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const properties: AdminBootstrapProperties = {
  SecretId: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:admin-AbCdEf',
  MainTable: tables.main,
  EphemeralTable: tables.ephemeral,
  ActivityTable: tables.activity,
  AdminEmail: 'Ops@Example.net',
  DefaultEnvironmentId: 'env_default',
  DcrEnvironmentId: 'env_dcr',
  ClientIdPrefix: 'tgc_',
  HashMethod: 'argon2id-fast',
  Issuer: 'https://auth.example.net',
};

const event = (requestType: 'Create' | 'Update' | 'Delete') =>
  customResourceEvent(
    requestType,
    { logicalResourceId: 'AdminBootstrap', resourceType: 'Custom::AdminBootstrap', physicalResourceId: properties.SecretId },
    properties,
  );

const secret = { value: 'placeholder-generated-by-secrets-manager', puts: 0 };
const secrets = {
  send: async (command: unknown) => {
    if (command instanceof GetSecretValueCommand) return { SecretString: secret.value };
    if (command instanceof PutSecretValueCommand) {
      secret.puts++;
      secret.value = command.input.SecretString!;
      return {};
    }
    throw new Error('unexpected command');
  },
};
const handler = createHandler({ secrets: secrets as never, db, random: cryptoRandom, clock: systemClock });
let log: jest.SpyInstance;

beforeAll(async () => {
  await ensureTables(client, tables);
  log = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(() => {
  log.mockRestore();
  client.destroy();
  db.destroy();
});

test('Create seeds the admin, the admin client and both environments under the synth-time ids; credentials go only to the secret', async () => {
  const result = await handler(event('Create'));
  expect(result).toEqual({ PhysicalResourceId: properties.SecretId });
  const credentials = JSON.parse(secret.value) as AdminCredentials;
  expect(credentials).toMatchObject({
    issuer: 'https://auth.example.net',
    admin: { email: 'ops@example.net' },
    environments: { defaultId: 'env_default', dcrId: 'env_dcr' },
  });
  expect(credentials.admin.password.length).toBeGreaterThanOrEqual(43);
  expect(credentials.adminClient.clientId).toMatch(/^tgc_/);

  const dcr = await db.send(new GetCommand({ TableName: tables.main, Key: { pk: 'ENV#env_dcr', sk: 'ENV' } }));
  expect(dcr.Item).toMatchObject({ id: 'env_dcr', dcr: true });
  const user = await db.send(new GetCommand({ TableName: tables.main, Key: { pk: `USER#${credentials.admin.userId}`, sk: 'USER' } }));
  expect(user.Item!.passwordHash).toMatch(/^\$argon2id\$/);
  expect(await argon2.verify(user.Item!.passwordHash, credentials.admin.password)).toBe(true);

  const logged = JSON.stringify(log.mock.calls);
  expect(logged).toContain('admin bootstrap seeded'); // the log is captured, so the next checks mean something
  expect(logged).not.toContain(credentials.admin.password);
  expect(logged).not.toContain(credentials.adminClient.clientSecret);
  expect(JSON.stringify(result)).not.toContain(credentials.admin.password);
});

test('a second Create (a replaced resource) and Update leave the seeded credentials alone', async () => {
  const before = secret.value;
  const puts = secret.puts;
  await handler(event('Create'));
  await handler(event('Update'));
  await handler(event('Delete'));
  expect(secret.value).toBe(before);
  expect(secret.puts).toBe(puts);
});

test('data already seeded but the secret empty: skipped without overwriting anything', async () => {
  secret.value = 'placeholder';
  await expect(handler(event('Create'))).resolves.toEqual({ PhysicalResourceId: properties.SecretId });
  expect(secret.value).toBe('placeholder');
});

test('behaviour CUSTODY-4: a secret marked handed over is never seeded again, even over empty tables (a restore, a replaced resource)', async () => {
  const emptyTables = physicalTableNames(`boot-${randomUUID().slice(0, 8)}-`);
  await ensureTables(client, emptyTables);
  const marker = JSON.stringify({ handedOver: '2026-11-26T06:00:00Z', note: 'credentials revoked through the admin API' });
  secret.value = marker;
  const puts = secret.puts;
  const replaced = customResourceEvent(
    'Create',
    { logicalResourceId: 'AdminBootstrap', resourceType: 'Custom::AdminBootstrap', physicalResourceId: properties.SecretId },
    { ...properties, MainTable: emptyTables.main, EphemeralTable: emptyTables.ephemeral, ActivityTable: emptyTables.activity },
  );
  await expect(handler(replaced)).resolves.toEqual({ PhysicalResourceId: properties.SecretId });
  expect(secret.value).toBe(marker);
  expect(secret.puts).toBe(puts);
  const environment = await db.send(new GetCommand({ TableName: emptyTables.main, Key: { pk: 'ENV#env_default', sk: 'ENV' } }));
  expect(environment.Item).toBeUndefined();
});
