/**
 * A small MCP server protected by this project's resource-server helper, as a platform
 * team would run one: RFC 9728 metadata pointing at the authorization server, 401 with
 * `WWW-Authenticate: Bearer resource_metadata=...` without a valid token for its URL,
 * and one tool, `whoami`, answering with the token's subject.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  BearerTokenError,
  createAccessTokenVerifier,
  metadataPath,
  protectedResourceMetadata,
  wwwAuthenticate,
} from '../../lambdas/resource-server';

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

export async function startMcpServer(issuer: string, jwksUri: string): Promise<RunningMcpServer> {
  let resource = '';
  let verify: ReturnType<typeof createAccessTokenVerifier>;
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method === 'GET' && path === metadataPath(resource)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(protectedResourceMetadata({ resource, authorizationServers: [issuer], scopesSupported: ['openid', 'profile'] })),
      );
      return;
    }
    if (path !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    let subject: string;
    try {
      subject = String((await verify(request.headers.authorization)).sub);
    } catch (error) {
      const bearerError = error instanceof BearerTokenError ? error : new BearerTokenError('invalid_token', 'rejected');
      response.writeHead(bearerError.status, {
        'www-authenticate': wwwAuthenticate(resource, bearerError),
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ error: bearerError.code, error_description: bearerError.message }));
      return;
    }
    // Stateless: a server and transport per request.
    const mcp = new McpServer({ name: 'test-mcp-server', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Who the access token belongs to' }, async () => ({
      content: [{ type: 'text', text: subject }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.method === 'POST' ? await readJson(request) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  resource = `http://localhost:${(server.address() as { port: number }).port}/mcp`;
  verify = createAccessTokenVerifier({ issuer, jwksUri, resource });
  return {
    url: resource,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
