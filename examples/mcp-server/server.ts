/**
 * A small MCP server protected by this project's resource-server helper, as a platform team
 * would run one: RFC 9728 metadata naming the authorization server, 401 with
 * `WWW-Authenticate: Bearer resource_metadata=...` without a valid token minted for its URL
 * (RFC 8707 audience), and two tools that read the verified token.
 *
 * In your own project the helper is `aws-oauth-authorization-server/resource-server`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  BearerTokenError,
  createAccessTokenVerifier,
  metadataPath,
  protectedResourceMetadata,
  type VerifiedAccessToken,
  wwwAuthenticate,
} from '../../lambdas/resource-server';

export interface McpServerOptions {
  /** The authorization server's issuer, e.g. `http://localhost:3000`. */
  readonly issuer: string;
  /** Default `{issuer}/jwks.json`, where the local server publishes its keys. */
  readonly jwksUri?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
}

export interface RunningMcpServer {
  /** The protected resource URL (the token audience), `http://localhost:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

/** The tools, each answering from the token the request was verified with. */
function mcpServerFor(token: VerifiedAccessToken): McpServer {
  const mcp = new McpServer({ name: 'tollgate-example-mcp-server', version: '1.0.0' });
  mcp.registerTool('whoami', { description: 'Who the access token belongs to (the user id)' }, async () => ({
    content: [{ type: 'text', text: String(token.sub) }],
  }));
  mcp.registerTool('token_info', { description: 'The client, scopes and expiry of the access token' }, async () => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          client_id: token.client_id,
          scopes: token.scopes,
          expires_at: new Date((token.exp ?? 0) * 1000).toISOString(),
        }),
      },
    ],
  }));
  return mcp;
}

export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  let resource = '';
  let verify: ReturnType<typeof createAccessTokenVerifier>;
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method === 'GET' && path === metadataPath(resource)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const metadata = protectedResourceMetadata({
        resource,
        authorizationServers: [options.issuer],
        scopesSupported: ['openid', 'profile'],
        resourceName: 'Tollgate example MCP server',
      });
      response.end(JSON.stringify(metadata));
      return;
    }
    if (path !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    let token: VerifiedAccessToken;
    try {
      token = await verify(request.headers.authorization);
    } catch (error) {
      const bearerError = error instanceof BearerTokenError ? error : new BearerTokenError('invalid_token', 'rejected');
      response.writeHead(bearerError.status, {
        'www-authenticate': wwwAuthenticate(resource, bearerError),
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ error: bearerError.code, error_description: bearerError.message }));
      return;
    }
    // Stateless: a server and transport per request, so nothing of one caller outlives its request.
    const mcp = mcpServerFor(token);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.method === 'POST' ? await readJson(request) : undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  resource = `http://localhost:${(server.address() as { port: number }).port}/mcp`;
  verify = createAccessTokenVerifier({ issuer: options.issuer, jwksUri: options.jwksUri ?? `${options.issuer}/jwks.json`, resource });
  return {
    url: resource,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
