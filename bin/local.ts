/**
 * `npm start`: runs the authorization server on this machine (see lambdas/local/app.ts).
 *   PORT        port to listen on (default 3000)
 *   DATA_DIR    where data survives restarts (default .data/)
 *   --in-memory (or IN_MEMORY=true) a throwaway run: nothing is kept
 * Any setting of the README's configuration table may be set in the environment too.
 */
import { resolve } from 'node:path';
import { ConfigError } from '../lambdas/config/settings';
import { LocalSetupError } from '../lambdas/local/dynamodb-local';
import { startLocalApp, type LocalApp } from '../lambdas/local/app';
import { outboxDir } from './mail-code';

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** The command that prints the newest mailed code (bin/mail-code.ts), naming the outbox unless it is the default one (behaviour CONFIG-12). */
function mailCodeCommand(outbox: string): string {
  if (resolve(outbox) === resolve(outboxDir({}))) return 'npm run -s mail:code';
  const quoted = /^[\w@%+=:,./-]+$/.test(outbox) ? outbox : `'${outbox.replaceAll("'", `'\\''`)}'`;
  return `MAIL_OUTBOX_DIR=${quoted} npm run -s mail:code`;
}

async function main(): Promise<void> {
  // The SDK warns that its 2027 releases need Node.js 22; the locked release runs on 20 (README).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const inMemory = process.argv.includes('--in-memory') || process.env.IN_MEMORY === 'true';
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number from 0 to 65535 (got "${process.env.PORT}").`);

  let app: LocalApp | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the server and DynamoDB Local...\n`);
    await app?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    app = await startLocalApp({ port, dataDir: inMemory ? undefined : (process.env.DATA_DIR ?? '.data'), env: process.env });
  } catch (error) {
    if (error instanceof LocalSetupError) fail(error.message);
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const { bootstrap } = app;
  const lines = [
    `Authorization server running at ${app.url}`,
    `  discovery  ${app.url}/.well-known/oauth-authorization-server`,
    `  JWKS       ${app.url}/jwks.json`,
    inMemory ? '  data       in memory (discarded on exit)' : `  data       ${app.dataDir}`,
    `  mail       ${app.outboxDir} (one JSON file per message)`,
    `  dashboard  ${app.url}/dashboard`,
    `             sign in as the admin user (${app.firstStart ? 'below' : `admin.email and admin.password in ${app.bootstrapFile}`});`,
    `             the code it mails: ${mailCodeCommand(app.outboxDir)}`,
  ];
  if (app.firstStart) {
    lines.push(
      '',
      'First start: bootstrap credentials (shown once; also saved, mode 0600, to',
      `  ${app.bootstrapFile})`,
      `  admin user         ${bootstrap.admin.email} / ${bootstrap.admin.password}`,
      `  admin API client   ${bootstrap.adminClient.clientId} / ${bootstrap.adminClient.clientSecret}`,
      `  environments       default ${bootstrap.environments.defaultId}, DCR ${bootstrap.environments.dcrId}`,
    );
  } else {
    lines.push(`  credentials ${app.bootstrapFile}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\nPress Ctrl-C to stop.\n`);
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error)));
