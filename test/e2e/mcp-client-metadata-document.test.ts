/**
 * The MCP TypeScript SDK's client naming itself by a Client ID Metadata Document (behaviour
 * CIMD-1..CIMD-5): against a default start it reads `client_id_metadata_document_supported`,
 * registers nothing, and uses its document's https URL as client_id; the server fetches the
 * document, shows the consent page, and sends the code to the loopback port the client listens on
 * although the document registered none (behaviour AUTHZ-13). The server runs in a process of its
 * own so that it can trust the document server's self-signed certificate (NODE_EXTRA_CA_CERTS is
 * read at start only); the certificate comes from the openssl command.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hiddenField } from '../support/authorization';
import { createUserOverHttp } from '../support/fixtures';
import { CookieBrowser, clientCredentialsToken } from '../support/local-http';
import { InMemoryOAuthProvider } from '../../examples/mcp-server/oauth-provider';
import { startMcpServer, type RunningMcpServer } from '../../examples/mcp-server/server';

const root = join(__dirname, '..', '..');
const tablePrefix = `e2e-cimd-${randomUUID().slice(0, 8)}-`;

let dataDir: string;
let documents: Server;
let documentUrl: string;
let authServer: { child: ChildProcess; url: string };
let mcp: RunningMcpServer;

/** A certificate for `localhost`, valid a day, made by the openssl command. */
function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}

async function startAuthServer(caFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['test/support/local-server-process.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      TABLE_PREFIX: tablePrefix,
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL,
      NODE_EXTRA_CA_CERTS: caFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^\{"url":"([^"]+)"\}$/m.exec(output);
      if (line) resolve(line[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the authorization server exited (${code}): ${output}`)));
  });
  return { child, url };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-e2e-cimd-'));
  const { key, cert } = selfSignedCertificate(dataDir);
  documents = createServer({ key: await readFile(key), cert: await readFile(cert) }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
    response.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: 'SDK metadata-document client',
        // No port: the native client listens on whatever port it gets (RFC 8252 7.3).
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://localhost:${(documents.address() as { port: number }).port}/mcp/client.json`;
  authServer = await startAuthServer(cert);
  mcp = await startMcpServer({ issuer: authServer.url });
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  authServer?.child.kill('SIGTERM');
  await new Promise((resolve) => (authServer?.child.exitCode !== null ? resolve(undefined) : authServer.child.once('exit', resolve)));
  documents?.closeAllConnections();
  documents?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('behaviour CIMD-1, AUTHZ-13: the MCP SDK uses its metadata document URL as client_id, signs in with consent, and calls a tool', async () => {
  const bootstrap = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8'));
  const adminToken = await clientCredentialsToken(
    authServer.url,
    bootstrap.adminClient.clientId,
    bootstrap.adminClient.clientSecret,
    'admin',
  );
  const user = await createUserOverHttp(authServer.url, adminToken, { name: 'MCP user', environments: [bootstrap.environments.dcrId] });
  const provider = new InMemoryOAuthProvider('http://127.0.0.1:33420/callback', 'SDK metadata-document client', undefined, documentUrl);

  expect(await auth(provider, { serverUrl: mcp.url })).toBe('REDIRECT');
  expect(provider.information?.client_id).toBe(documentUrl);
  expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(documentUrl);

  const browser = new CookieBrowser(() => authServer.url);
  const authorization = provider.authorizationUrl!;
  const page = await browser.request('GET', `${authorization.pathname}${authorization.search}`);
  expect(page.status).toBe(200);
  const consent = await browser.request('POST', '/api/authorize', {
    request_id: hiddenField(page.text, 'request_id'),
    email: user.email,
    password: user.password,
  });
  expect(consent.text).toContain('SDK metadata-document client');
  expect(consent.text).toContain('registered itself');
  const approved = await browser.request('POST', '/api/authorize/complete', {
    request_id: hiddenField(consent.text, 'request_id'),
    decision: 'approve',
  });
  const callback = new URL(approved.location!);
  expect(`${callback.origin}${callback.pathname}`).toBe(provider.redirectUrl);

  expect(await auth(provider, { serverUrl: mcp.url, authorizationCode: callback.searchParams.get('code')! })).toBe('AUTHORIZED');
  expect(decodeJwt(provider.saved!.access_token)).toMatchObject({ aud: mcp.url, sub: user.id, client_id: documentUrl });
  const client = new Client({ name: 'sdk-cimd-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider }));
  expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: user.id }]);
  await client.close();
});
