/**
 * Refusals on the browser-facing endpoints: a page for browsers (they asked for text/html),
 * the usual OAuth JSON error for everything else (through the shared serializer).
 * The page shows only the error's public description; the reason goes to the log.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { OAuthError } from '../core/errors';
import type { Container } from '../http/container';
import type { Endpoint } from '../http/handler';
import { htmlResponse, wantsHtml } from './html';
import { errorPage } from './views/messages';

export function errorPageResponse(error: OAuthError, container: Container): APIGatewayProxyResult {
  container.log.info('request refused', { error: error.code, status: error.status, reason: error.reason });
  return htmlResponse(error.status, errorPage('This request cannot be completed', error.description), { headers: error.headers });
}

/** Wraps a browser-facing endpoint: OAuth errors become pages when a browser asked. */
export function withErrorPages(endpoint: Endpoint): Endpoint {
  return async (event: APIGatewayProxyEvent, container: Container) => {
    try {
      return await endpoint(event, container);
    } catch (error) {
      if (error instanceof OAuthError && error.status < 500 && wantsHtml(event)) return errorPageResponse(error, container);
      throw error;
    }
  };
}
