/**
 * One DynamoDB Local for the whole jest run (in memory), with the tables created from
 * the shared definitions, a signing key, and the variables the stack would give a
 * function. Tests isolate themselves with unique ids rather than restarting anything.
 * Workers inherit process.env from here.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDynamoClient } from '../../lambdas/adapters/dynamodb/client';
import { generateKeySet } from '../../lambdas/adapters/signing/key-set';
import { generateDeviceKeys } from '../../lambdas/adapters/device-cookie-keys';
import { startDynamoDbLocal } from '../../lambdas/local/dynamodb-local';
import { ensureTables, physicalTableNames, tableEnv } from '../../lambdas/local/tables';

export default async function globalSetup(): Promise<void> {
  // The SDK warns that its 2027 releases need Node.js 22; the locked release runs on 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal();
  (globalThis as { __dynamoDbLocal__?: unknown }).__dynamoDbLocal__ = dynamo;
  const tables = physicalTableNames('test-');
  const client = createDynamoClient({ endpoint: dynamo.endpoint });
  await ensureTables(client, tables);
  client.destroy();

  const dir = await mkdtemp(join(tmpdir(), 'authz-test-'));
  const signingKeyFile = join(dir, 'signing-keys.json');
  await writeFile(signingKeyFile, JSON.stringify(await generateKeySet('RS256')), { mode: 0o600 });
  const deviceCookieKeyFile = join(dir, 'device-cookie-keys.json');
  await writeFile(deviceCookieKeyFile, JSON.stringify(generateDeviceKeys()), { mode: 0o600 });
  // Every temp folder the run makes (os.tmpdir() in the workers, and in the `npm start`
  // processes they spawn: local-server data, cloud assemblies) lands inside `dir`, which the
  // teardown removes, so a run leaves nothing behind even where a test cannot clean up.
  const scratch = join(dir, 'tmp');
  await mkdir(scratch);

  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    ...tableEnv(tables),
    SIGNING_KEY_FILE: signingKeyFile,
    DEVICE_COOKIE_KEY_FILE: deviceCookieKeyFile,
    // The logo's objects, as the local server keeps them (lambdas/wiring/site-assets.ts).
    SITE_ASSETS_DIR: join(dir, 'assets'),
    TEST_TMP_DIR: dir,
    // What each test file's requests used of the storage its routes declare (behaviour IAM-3).
    STORAGE_ACCESS_DIR: join(dir, 'storage-access'),
    TMPDIR: scratch,
    BASE_URL: 'https://auth.example.test',
    JWKS_CDN_BASE_URL: 'https://jwks.example.test',
    MAIL_FROM: 'no-reply@example.test',
    DCR_ENVIRONMENT_ID: 'env_dcrtest',
    HASH_METHOD: 'argon2id-fast',
    // Expected refusals log at error level; VERBOSE_TESTS=1 shows them (README "Tests").
    LOG_LEVEL: process.env.VERBOSE_TESTS ? 'warn' : 'silent',
  });
}
