import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RequestParameters } from '../core/authorization-request';

/** Query parameters and which of them were repeated (RFC 6749 3.1 forbids repeats). */
export function queryParameters(
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
): RequestParameters {
  const values: Record<string, string | undefined> = Object.create(null);
  const repeated = new Set<string>();
  const multi = event.multiValueQueryStringParameters;
  if (multi) {
    for (const [name, list] of Object.entries(multi)) {
      if (!list || list.length === 0) continue;
      values[name] = list[0];
      if (list.length > 1) repeated.add(name);
    }
  } else {
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) values[name] = value;
  }
  return { values, repeated };
}
