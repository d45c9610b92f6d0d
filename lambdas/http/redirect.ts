import type { APIGatewayProxyResult } from 'aws-lambda';

/** 303: the browser follows with a GET and never re-posts the form with the credentials in it (RFC 9700 4.12: not 307). */
export function redirect(location: string, headers: Readonly<Record<string, string>> = {}): APIGatewayProxyResult {
  return { statusCode: 303, headers: { Location: location, ...headers }, body: '' };
}
