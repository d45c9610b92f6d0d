/**
 * A local server in a process of its own, for tests that need two separately started
 * servers over one DynamoDB Local (per-container caches are per process). Started with tsx;
 * prints one JSON line `{ "url": ... }` once it serves, and stops on SIGTERM.
 *   DYNAMODB_ENDPOINT, TABLE_PREFIX, DATA_DIR: the shared database, tables and signing key.
 */
import { startLocalApp } from '../../lambdas/local/app';

async function main(): Promise<void> {
  const app = await startLocalApp({
    port: 0,
    dataDir: process.env.DATA_DIR,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: process.env.TABLE_PREFIX,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', MAIL_OUTBOX_DIR: process.env.MAIL_OUTBOX_DIR },
  });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ url: app.url })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
