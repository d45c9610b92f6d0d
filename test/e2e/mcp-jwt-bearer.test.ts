/**
 * The MCP TypeScript SDK's own client, with a provider whose `prepareTokenRequest` makes a
 * JWT-bearer grant (RFC 7523 2.1), against `npm start` and an MCP server protected by the
 * resource-server helper: RFC 9728 and RFC 8414 discovery, the grant with the MCP server as
 * `resource`, then a tool call. An MCP client of Enterprise-Managed Authorization presents an
 * ID-JAG with its client secret (behaviour IDJAG-1); a workload presents its platform token with
 * no client authentication at all (behaviour WIF-1).
 */
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomUUID } from 'node:crypto';
import { SignJWT, type CryptoKey } from 'jose';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { createEnvironment, createTokenClient, createTokenUser, createTrustedIssuer } from '../support/fixtures';
import { startMcpServer, type RunningMcpServer } from '../../examples/mcp-server/server';

const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const now = () => Math.floor(Date.now() / 1000);

/** A non-interactive MCP client: no redirect URL, the grant made by `prepareTokenRequest`. */
class AssertionProvider implements OAuthClientProvider {
  saved?: OAuthTokens;
  readonly redirectUrl = undefined;
  constructor(
    private readonly information: OAuthClientInformationMixed,
    private readonly assertion: () => Promise<string>,
    /** A workload sends no client credentials: this replaces the SDK's client authentication. */
    readonly addClientAuthentication?: OAuthClientProvider['addClientAuthentication'],
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'assertion client', redirect_uris: [], grant_types: [jwtBearer] };
  }
  clientInformation() {
    return this.information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(): never {
    throw new Error('no browser in this flow');
  }
  saveCodeVerifier() {}
  codeVerifier(): never {
    throw new Error('no code in this flow');
  }
  async prepareTokenRequest() {
    return new URLSearchParams({ grant_type: jwtBearer, assertion: await this.assertion() });
  }
}

let app: LocalApp;
let mcp: RunningMcpServer;

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `mcpjwtb-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' },
  });
  mcp = await startMcpServer({ issuer: app.url });
});

afterAll(async () => {
  await mcp.close();
  await app.close();
});

const sign = (key: CryptoKey, kid: string, claims: Record<string, unknown>, typ: string) =>
  new SignJWT({ jti: randomUUID(), iat: now(), exp: now() + 300, ...claims }).setProtectedHeader({ alg: 'ES256', kid, typ }).sign(key);

async function whoami(provider: OAuthClientProvider): Promise<unknown> {
  const client = new Client({ name: 'sdk-jwt-bearer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider }));
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  await client.close();
  return result.content;
}

it('an MCP client trades an ID-JAG for its user’s token for the MCP server, and calls a tool (Enterprise-Managed Authorization, behaviour IDJAG-1)', async () => {
  const environmentId = await createEnvironment();
  const idp = await createTrustedIssuer({ environmentId, profile: 'id-jag' });
  const user = await createTokenUser([environmentId]);
  const { client, secret } = await createTokenClient({
    environmentId,
    type: 'confidential',
    grantTypes: [jwtBearer],
    scopes: ['read'],
    redirectUris: [],
  });
  const provider = new AssertionProvider({ client_id: client.clientId, client_secret: secret, issuer: app.url }, () =>
    sign(
      idp.privateKey!,
      idp.kid!,
      { iss: idp.trustedIssuer.issuer, sub: user.id, aud: app.url, client_id: client.clientId, resource: mcp.url, scope: 'read' },
      'oauth-id-jag+jwt',
    ),
  );
  expect(await auth(provider, { serverUrl: mcp.url })).toBe('AUTHORIZED');
  expect(provider.saved).toMatchObject({ token_type: 'Bearer', scope: 'read' });
  expect(provider.saved).not.toHaveProperty('refresh_token');
  expect(await whoami(provider)).toEqual([{ type: 'text', text: user.id }]);
});

it('a workload trades its platform token, with no client authentication, and calls a tool (Workload Identity Federation, behaviour WIF-1)', async () => {
  const environmentId = await createEnvironment();
  const platform = await createTrustedIssuer({
    environmentId,
    profile: 'workload',
    rules: [{ subject: 'system:serviceaccount:agents:*', scopes: ['read'], resources: [mcp.url] }],
  });
  const sub = 'system:serviceaccount:agents:summarizer';
  const provider = new AssertionProvider(
    { client_id: 'unused-by-a-workload', issuer: app.url },
    () => sign(platform.privateKey!, platform.kid!, { iss: platform.trustedIssuer.issuer, sub, aud: `${app.url}/api/token` }, 'JWT'),
    () => undefined,
  );
  expect(await auth(provider, { serverUrl: mcp.url })).toBe('AUTHORIZED');
  expect(await whoami(provider)).toEqual([{ type: 'text', text: `${platform.trustedIssuer.issuer}#${sub}` }]);
});
