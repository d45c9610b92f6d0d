/**
 * Wraps an endpoint in the shared middy chain: the container (config, log, clock,
 * randomness) comes from the getter the wiring passes in, errors go through the one
 * serializer, every response gets the security and caching headers, and one structured log
 * line is written per request (at debug level when it succeeded, see requestLog).
 * lambdas/wiring/handler.ts binds it to this Lambda container.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { runWithinDeadline } from '../adapters/aws/invocation-deadline';
import { createLogger } from '../adapters/json-logger';
import type { Logger } from '../core/ports';
import type { Container } from './container';
import { crossOriginResponseHeaders } from './cors';
import { errorResponse } from './errors';
import { requestFields, runInRequest } from './request-context';

export type Endpoint = (event: APIGatewayProxyEvent, container: Container) => Promise<APIGatewayProxyResult>;
export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface EndpointOptions {
  /**
   * The route row is flagged `crossOrigin` (lambdas/routes.ts): responses carry the CORS
   * headers of http/cors.ts. test/integration/cors.test.ts checks each handler agrees with its row.
   */
  readonly crossOrigin?: boolean;
}

/**
 * Used only when the container itself cannot be built (invalid configuration), so made on that
 * first use: building a logger opens stdout, a few milliseconds no import should pay for nothing.
 */
let bootLogger: Logger | undefined;

/** The first invocation of this container (Lambda execution environment) pays for the imports. */
let coldStart = true;

const defaultHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

type Request = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

function withDefaultHeaders(request: Request): void {
  const response = request.response;
  if (!response) return;
  const headers: Record<string, string | number | boolean> = { ...response.headers };
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase());
  for (const [name, value] of Object.entries(defaultHeaders)) if (!has(name)) headers[name] = value;
  // RFC 6749 5.1 and 7009/7662: responses carrying credentials must not be cached.
  if (!has('Cache-Control')) {
    headers['Cache-Control'] = 'no-store';
    headers.Pragma = 'no-cache';
  }
  response.headers = headers;
}

function withCrossOriginHeaders(request: Request): void {
  if (request.response) request.response.headers = { ...request.response.headers, ...crossOriginResponseHeaders };
}

/** Behaviour HTTP-7: errors too, or a browser client could not read why it was refused. */
const crossOrigin: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> = {
  after: withCrossOriginHeaders,
  onError: withCrossOriginHeaders,
};

const securityHeaders: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> = {
  after: withDefaultHeaders,
  onError: withDefaultHeaders,
};

type ContainerGetter = () => Container;

/** The container's logger, or the boot logger when the container cannot be built (bad settings). */
function logOf(getContainer: ContainerGetter) {
  try {
    return getContainer().log;
  } catch {
    bootLogger ??= createLogger('info', { service: 'authorization-server' }, requestFields);
    return bootLogger;
  }
}

const errorMapper = (getContainer: ContainerGetter): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: (request) => {
    request.response = errorResponse(request.error, logOf(getContainer));
  },
});

/**
 * A successful request logs at debug level only: API Gateway's access log already records each
 * request's method, path, status, time and id (lib/authorization-server.ts), and on the token
 * endpoint the duplicate line was a measurable share of the CPU per token (bench/README.md).
 * Refusals and failures (status >= 400) still log at info, with the
 * function's own view of them.
 */
function requestLog(getContainer: ContainerGetter): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const started = new WeakMap<object, number>();
  const write = (request: Request) => {
    const log = logOf(getContainer);
    const status = request.response?.statusCode;
    const fields = { status, durationMs: Math.round(performance.now() - (started.get(request) ?? performance.now())) };
    if (status !== undefined && status < 400) log.debug('request', fields);
    else log.info('request', fields);
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
    },
    after: write,
    onError: write,
  };
}

/**
 * The fields every log line of one request carries (behaviour LOG-6): API Gateway's request id (as in
 * the access log), Lambda's (as in its START/REPORT lines), the route template, and whether this
 * invocation started the container. The client id is added once known (request-context.ts).
 */
function requestLogFields(event: APIGatewayProxyEvent, context: Context | undefined) {
  const fields = {
    requestId: event.requestContext?.requestId,
    lambdaRequestId: context?.awsRequestId,
    route: `${event.httpMethod} ${event.resource}`,
    coldStart,
  };
  coldStart = false;
  return fields;
}

/** The handler factory for one container getter (lambdas/wiring/handler.ts makes the one in use). */
export const handlerFactory =
  (getContainer: ContainerGetter) =>
  (endpoint: Endpoint, options: EndpointOptions = {}): LambdaHandler => {
    // onError runs in reverse order: map the error first, then log it, then add headers.
    const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use([...(options.crossOrigin ? [crossOrigin] : []), securityHeaders, requestLog(getContainer), errorMapper(getContainer)])
      .handler(async (event) => endpoint(event, getContainer())) as unknown as LambdaHandler;
    // The invocation's deadline bounds every AWS call made for it (adapters/aws/invocation-deadline.ts).
    return (event, context) =>
      runWithinDeadline(context?.getRemainingTimeInMillis?.(), () =>
        runInRequest(requestLogFields(event, context), () => chain(event, context)),
      );
  };
