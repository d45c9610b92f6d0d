/** API Gateway REST proxy events for calling handlers directly, as Lambda would. */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export interface EventOptions {
  readonly method?: string;
  readonly path: string;
  /** Route template; defaults to the path. */
  readonly resource?: string;
  readonly headers?: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly pathParameters?: Record<string, string>;
  readonly body?: string;
  readonly sourceIp?: string;
}

export function apiGatewayEvent(options: EventOptions): APIGatewayProxyEvent {
  const headers = options.headers ?? {};
  return {
    resource: options.resource ?? options.path,
    path: options.path,
    httpMethod: options.method ?? 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      requestId: `test-${Math.random().toString(36).slice(2)}`,
      httpMethod: options.method ?? 'GET',
      path: options.path,
      resourcePath: options.resource ?? options.path,
      stage: 'test',
      identity: { sourceIp: options.sourceIp ?? '203.0.113.7' },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

export const lambdaContext = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

export function jsonBody(result: APIGatewayProxyResult): Record<string, unknown> {
  return JSON.parse(result.body) as Record<string, unknown>;
}

export function headerOf(result: APIGatewayProxyResult, name: string): string | undefined {
  const entry = Object.entries(result.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return entry === undefined ? undefined : String(entry[1]);
}
