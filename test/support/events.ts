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

/** The header's value; for one sent several times (`multiValueHeaders`, e.g. Set-Cookie), its first. */
export function headerOf(result: APIGatewayProxyResult, name: string): string | undefined {
  return headersOf(result, name)[0];
}

/** Every value of the header, from `headers` and `multiValueHeaders` (API Gateway sends both). */
export function headersOf(result: APIGatewayProxyResult, name: string): string[] {
  const matches = (k: string) => k.toLowerCase() === name.toLowerCase();
  return [
    ...Object.entries(result.headers ?? {})
      .filter(([k]) => matches(k))
      .map(([, v]) => String(v)),
    ...Object.entries(result.multiValueHeaders ?? {})
      .filter(([k]) => matches(k))
      .flatMap(([, values]) => values.map(String)),
  ];
}
