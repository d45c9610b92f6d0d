/**
 * `npm run example:mcp-client`: the MCP TypeScript SDK's client, with its OAuth support, against
 * the example MCP server. The SDK finds the authorization server through the MCP server's RFC 9728
 * metadata, registers this client (RFC 7591), and sends you to sign in; this script catches the
 * redirect on a loopback port (RFC 8252 7.3), lets the SDK redeem the code with PKCE, then lists
 * the tools and calls them.
 *   MCP_SERVER_URL  default http://localhost:3001/mcp
 *   NO_BROWSER=1    print the sign-in URL without opening a browser
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { InMemoryOAuthProvider } from './oauth-provider';

const serverUrl = new URL(process.env.MCP_SERVER_URL ?? 'http://localhost:3001/mcp');

/** Listens on a free loopback port; `code` settles with the first callback's authorization code. */
async function startCallbackListener(expectedState: () => string) {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const server = createServer((request, response) => {
    const params = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    const received = params.get('code');
    const ok = received !== null && params.get('state') === expectedState();
    response.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(ok ? 'Signed in. You can close this tab and return to the terminal.' : 'Sign-in failed; see the terminal.');
    if (ok) settle.resolve(received);
    else
      settle.reject(new Error(`The sign-in did not complete: ${params.get('error_description') ?? params.get('error') ?? 'wrong state'}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`;
  return { redirectUrl, code, close: () => server.close() };
}

function openBrowser(url: URL): void {
  if (process.env.NO_BROWSER) return;
  const [command, ...args] =
    process.platform === 'darwin' ? ['open'] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""'] : ['xdg-open'];
  spawn(command!, [...args, url.toString()], { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

async function main(): Promise<void> {
  let provider!: InMemoryOAuthProvider;
  const callback = await startCallbackListener(() => provider.expectedState);
  provider = new InMemoryOAuthProvider(callback.redirectUrl, 'Tollgate example MCP client', (url) => {
    process.stdout.write(`Sign in to let this client call ${serverUrl}; open:\n  ${url}\n`);
    openBrowser(url);
  });
  const client = new Client({ name: 'tollgate-example-mcp-client', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    // The SDK has registered this client and sent the user to sign in; finish with the code.
    const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
    await transport.finishAuth(await callback.code);
    await client.connect(transport);
  } finally {
    callback.close();
  }
  const { tools } = await client.listTools();
  process.stdout.write(`Connected. Tools: ${tools.map((tool) => tool.name).join(', ')}\n`);
  for (const name of ['whoami', 'token_info']) {
    const result = await client.callTool({ name, arguments: {} });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
    process.stdout.write(`${name}: ${text}\n`);
  }
  await client.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
