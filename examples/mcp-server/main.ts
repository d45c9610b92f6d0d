/**
 * `npm run example:mcp`: the local authorization server (what `npm start` runs, kept in memory)
 * and beside it the protected MCP server of server.ts, with a user who may sign in to
 * self-registered MCP clients.
 *   PORT      the authorization server's port (default 3000)
 *   MCP_PORT  the MCP server's port (default 3001)
 * Ctrl-C (or SIGTERM) stops both, and DynamoDB Local with them.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../lambdas/config/settings';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { LocalSetupError } from '../../lambdas/local/dynamodb-local';
import { metadataUrl } from '../../lambdas/resource-server';
import { startMcpServer, type RunningMcpServer } from './server';

function portOf(name: string, fallback: number): number {
  const port = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new LocalSetupError(`${name} must be a port number from 0 to 65535.`);
  return port;
}

/**
 * The bootstrap admin must also enter a mailed code (MFA_POLICY=admins), so the example makes a
 * plain user through the admin API and grants it the environment of self-registered clients
 * (behaviour ENV-1): the user an MCP client's sign-in asks for.
 */
async function createDemoUser(app: LocalApp): Promise<{ email: string; password: string }> {
  const { clientId, clientSecret } = app.bootstrap.adminClient;
  const tokenResponse = await fetch(`${app.url}/api/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'admin' }),
  });
  const { access_token } = (await tokenResponse.json()) as { access_token: string };
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const user = { email: 'mcp-user@example.com', password: randomBytes(12).toString('base64url') };
  const created = await admin('POST', '/api/admin/users', { name: 'MCP example user', ...user });
  if (created.status !== 201) throw new Error(`Creating the example user failed: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const granted = await admin('PUT', `/api/admin/users/${id}/environments/${app.bootstrap.environments.dcrId}`);
  if (!granted.ok) throw new Error(`Granting the example user its environment failed: ${granted.status} ${await granted.text()}`);
  return user;
}

let app: LocalApp | undefined;
let mcp: RunningMcpServer | undefined;

/** Closes what has started, DynamoDB Local's Java process with the local server, then exits. */
async function stop(code: number): Promise<never> {
  await mcp?.close();
  await app?.close();
  process.exit(code);
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  const mcpPort = portOf('MCP_PORT', 3001);
  app = await startLocalApp({ port: portOf('PORT', 3000), env: process.env });
  mcp = await startMcpServer({ issuer: app.url, port: mcpPort }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? new LocalSetupError(`Port ${mcpPort} is already in use; choose another with MCP_PORT.`) : error;
  });
  const user = await createDemoUser(app);
  process.stdout.write(
    [
      `Authorization server  ${app.url}  (in memory: every start is a fresh one)`,
      `MCP server            ${mcp.url}`,
      `  its metadata        ${metadataUrl(mcp.url)}`,
      `  tools               whoami, token_info`,
      `Sign in as            ${user.email} / ${user.password}`,
      '',
      'Next, in another terminal, connect an MCP client (it registers itself, opens your browser to sign in, calls the tools):',
      `  MCP_SERVER_URL=${mcp.url} npm run example:mcp-client`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch(async (error: unknown) => {
  const known = error instanceof LocalSetupError || error instanceof ConfigError;
  process.stderr.write(`error: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  await stop(1);
});
