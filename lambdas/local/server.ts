/**
 * The local HTTP server: the same route table and handler modules as the Lambda
 * functions, invoked with API Gateway proxy events. It also serves `/jwks.json`,
 * which CloudFront serves in AWS.
 */
import type { Context } from 'aws-lambda';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { siteAssetKeyPattern } from '../adapters/file-site-assets';
import { parseKeySet, publicJwks } from '../adapters/signing/key-set';
import { crossOriginResponseHeaders, preflightHeaders } from '../http/cors';
import type { LambdaHandler } from '../http/handler';
import { createRouter } from '../http/router';
import { fallbackHandler, type HttpMethod, routeTimeoutSeconds } from '../routes';
import { toApiGatewayEvent, writeResult } from './api-gateway-event';

/** API Gateway's own payload limit is 10 MB; locally 1 MiB is plenty and keeps memory bounded. */
const maxRequestBytes = 1024 * 1024;

export interface LocalServerOptions {
  readonly port: number;
  /** Default 127.0.0.1: the local server is for this machine only. */
  readonly host?: string;
  /** The signing key set file whose public half is served at /jwks.json. */
  readonly signingKeyFile: string;
  /** Served at `/branding/*` as CloudFront serves that prefix of the JWKS bucket (the site logo). */
  readonly siteAssetsDir?: string;
  /** Requests wait for this: the port is taken first, then tables, keys and settings are prepared. */
  readonly ready?: Promise<unknown>;
}

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const handlerCache = new Map<string, Promise<LambdaHandler>>();

function loadHandler(name: string): Promise<LambdaHandler> {
  let loaded = handlerCache.get(name);
  if (!loaded) {
    loaded = import(join(__dirname, '..', 'handlers', name)).then((m: { handler: LambdaHandler }) => m.handler);
    handlerCache.set(name, loaded);
  }
  return loaded;
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBytes) {
        resolve(undefined);
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** As Lambda's: the time left before the route's timeout (lambdas/routes.ts), from the request's arrival. */
function lambdaContext(requestId: string): Context {
  const endsAt = Date.now() + routeTimeoutSeconds * 1000;
  return {
    awsRequestId: requestId,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => endsAt - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const assetTypes: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** Only keys the server could have chosen (no traversal), with the headers of lib/jwks.ts's branding behaviour. */
async function serveSiteAsset(response: ServerResponse, root: string, key: string): Promise<void> {
  const bytes = siteAssetKeyPattern.test(key) ? await readFile(join(root, key)).catch(() => undefined) : undefined;
  if (!bytes) {
    response.writeHead(404, { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' });
    response.end('Not found');
    return;
  }
  response.writeHead(200, {
    'Content-Type': assetTypes[key.slice(key.lastIndexOf('.') + 1)]!,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  });
  response.end(bytes);
}

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The methods of the rows flagged `crossOrigin` at this path, as API Gateway's OPTIONS
 * methods answer them (lib/cors-preflight.ts); none: the fallback answers 405 (behaviour HTTP-6, HTTP-8).
 */
function crossOriginMethods(route: ReturnType<typeof createRouter>, path: string): HttpMethod[] {
  return methods.filter((method) => {
    const found = route(method, path);
    return found.kind === 'match' && found.route.crossOrigin === true;
  });
}

export function startLocalServer(options: LocalServerOptions): Promise<RunningServer> {
  const route = createRouter();
  const server = createServer(async (request, response) => {
    try {
      await options.ready;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/jwks.json' && request.method === 'GET') {
        const set = parseKeySet(await readFile(options.signingKeyFile, 'utf8'));
        // CloudFront's response headers policy sends the same (lib/jwks.ts).
        response.writeHead(200, {
          'Content-Type': 'application/json',
          'Cache-Control': 'public, max-age=300',
          'Access-Control-Allow-Origin': crossOriginResponseHeaders['Access-Control-Allow-Origin']!,
        });
        response.end(JSON.stringify(set ? publicJwks(set) : { keys: [] }));
        return;
      }
      if (options.siteAssetsDir && url.pathname.startsWith('/branding/') && request.method === 'GET') {
        await serveSiteAsset(response, options.siteAssetsDir, url.pathname.slice(1));
        return;
      }
      if (request.method === 'OPTIONS') {
        const allowed = crossOriginMethods(route, url.pathname);
        if (allowed.length > 0) {
          response.writeHead(204, preflightHeaders(allowed));
          response.end();
          return;
        }
      }
      const body = await readBody(request);
      if (!body) {
        response.writeHead(413, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: 'invalid_request', error_description: 'The request body is too large.' }));
        return;
      }
      const found = route(request.method ?? 'GET', url.pathname);
      const [handlerName, resource, pathParameters] =
        found.kind === 'match' ? [found.route.handler, found.route.path, found.pathParameters] : [fallbackHandler, '/{proxy+}', {}];
      const event = toApiGatewayEvent({ request, url, body, resource, pathParameters });
      const handler = await loadHandler(handlerName);
      writeResult(response, await handler(event, lambdaContext(event.requestContext.requestId)));
    } catch (error) {
      // Handlers map their own errors; reaching here is a bug in this adapter.
      process.stderr.write(`local server error: ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: 'server_error', error_description: 'The server could not complete the request.' }));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://localhost:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
