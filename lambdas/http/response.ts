import type { APIGatewayProxyResult } from 'aws-lambda';

export interface ResponseOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Omit for `no-store` (the default for every response, RFC 6749 5.1). */
  readonly cacheControl?: string;
}

/** Cacheable public documents (discovery): short, so a settings or scope change shows soon. */
export const publicCache = 'public, max-age=300';

export function jsonResponse(statusCode: number, body: unknown, options: ResponseOptions = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...(options.cacheControl ? { 'Cache-Control': options.cacheControl } : {}),
      ...options.headers,
    },
    body: JSON.stringify(body),
  };
}
