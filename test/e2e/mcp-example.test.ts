/**
 * The README's MCP example as a newcomer runs it: `npm run example:mcp` in one process (the local
 * authorization server and the protected MCP server), `npm run example:mcp-client` in another (the
 * MCP SDK's client with its OAuth support), the browser's sign-in and consent played over HTTP, the
 * tools called; then Ctrl-C stops the example and frees its ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../lambdas/local/dynamodb-local';
import { CookieBrowser } from '../support/local-http';

const root = join(__dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

/**
 * A shell's environment, not the test run's settings (its BASE_URL names no real host); TMPDIR is
 * the run's own, so the example's in-memory data goes with the run's temp folder.
 */
const shellEnvironment = Object.fromEntries(
  ['PATH', 'HOME', 'TMPDIR', 'JAVA_HOME'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])),
);

/** Runs an npm script's `tsx <file>` directly, so the test holds the very process it stops. */
function run(script: string, env: Record<string, string>): Started {
  const [command, file] = scripts[script]!.split(' ');
  expect(command).toBe('tsx');
  const child = spawn(tsx, [file!], {
    cwd: root,
    env: { ...shellEnvironment, HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(predicate: () => boolean, what: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

describe('npm run example:mcp with npm run example:mcp-client (README "MCP server example")', () => {
  let example: Started | undefined;
  let authPort: number;
  let mcpPort: number;

  beforeAll(async () => {
    [authPort, mcpPort] = [await freePort(), await freePort()];
    example = run('example:mcp', { PORT: String(authPort), MCP_PORT: String(mcpPort) });
    await waitFor(
      () => example!.output().includes('Press Ctrl-C to stop.'),
      () => example!.output(),
    );
  }, 120_000);

  afterAll(async () => {
    if (example?.child.exitCode === null) {
      example.child.kill('SIGTERM');
      await example.exited;
    }
  });

  it('serves RFC 9728 metadata and answers 401 with its resource_metadata without a token (RFC 9728 3.1, 5.1)', async () => {
    const mcpUrl = `http://localhost:${mcpPort}/mcp`;
    expect(example!.output()).toContain(`MCP server            ${mcpUrl}`);
    const metadata = await (await fetch(`http://localhost:${mcpPort}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: mcpUrl, authorization_servers: [`http://localhost:${authPort}`] });
    const refused = await fetch(mcpUrl, { method: 'POST', headers: { authorization: 'Bearer not-a-token' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(
      `resource_metadata="http://localhost:${mcpPort}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
    );
    expect(await refused.json()).toMatchObject({ error: 'invalid_token', error_description: expect.stringContaining('rejected') });
  });

  it('the client registers itself (RFC 7591), the printed user signs in and consents, and the tools answer for that user', async () => {
    const [, email, password] = /Sign in as\s+(\S+) \/ (\S+)/.exec(example!.output())!;
    const client = run('example:mcp-client', { MCP_SERVER_URL: `http://localhost:${mcpPort}/mcp`, NO_BROWSER: '1' });
    try {
      await waitFor(() => /open:\n\s+(\S+)/.test(client.output()) || client.child.exitCode !== null, client.output, 30_000);
      const authorizationUrl = new URL(/open:\n\s+(\S+)/.exec(client.output())![1]!);
      expect(authorizationUrl.origin).toBe(`http://localhost:${authPort}`);
      expect(authorizationUrl.searchParams.get('resource')).toBe(`http://localhost:${mcpPort}/mcp`);

      const browser = new CookieBrowser(() => authorizationUrl.origin);
      const page = await browser.request('GET', `${authorizationUrl.pathname}${authorizationUrl.search}`);
      const requestId = (text: string) => /name="request_id" value="([^"]*)"/.exec(text)![1]!;
      const signedIn = await browser.request('POST', '/api/authorize', {
        request_id: requestId(page.text),
        email: email!,
        password: password!,
      });
      expect(signedIn.text).toContain('Tollgate example MCP client');
      const approved = await browser.request('POST', '/api/authorize/complete', {
        request_id: requestId(signedIn.text),
        decision: 'approve',
      });
      expect(approved.status).toBe(303);
      const callback = await fetch(approved.location!);
      expect(await callback.text()).toContain('Signed in.');

      expect(await client.exited).toBe(0);
      expect(client.output()).toContain('Connected. Tools: whoami, token_info');
      expect(client.output()).toMatch(/^whoami: usr_\S+$/m);
      expect(client.output()).toMatch(/^token_info: \{"client_id":"tgc_\w+","scopes":\["openid","profile"\],"expires_at":"[^"]+"\}$/m);
    } finally {
      if (client.child.exitCode === null) client.child.kill('SIGTERM');
    }
  }, 60_000);

  it('names the MCP port when it is taken, in one line, with exit code 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const second = run('example:mcp', { PORT: String(await freePort()), MCP_PORT: String(taken) });
      expect(await second.exited).toBe(1);
      expect(second.output().trim()).toBe(`error: Port ${taken} is already in use; choose another with MCP_PORT.`);
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('Ctrl-C stops the example: exit code 0, and neither port answers any more', async () => {
    example!.child.kill('SIGINT');
    expect(await example!.exited).toBe(0);
    expect(await answers(`http://localhost:${authPort}/api/health`)).toBe(false);
    expect(await answers(`http://localhost:${mcpPort}/mcp`)).toBe(false);
  }, 30_000);
});
