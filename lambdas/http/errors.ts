import type { APIGatewayProxyResult } from 'aws-lambda';
import { OAuthError, ServerError } from '../core/errors';
import type { Logger } from '../core/ports';
import { jsonResponse } from './response';

/**
 * The single error serializer: `{ "error", "error_description" }` (RFC 6749 5.2) for every
 * failure. Unknown errors become a generic 500; their detail goes to the log only.
 */
export function errorResponse(error: unknown, log: Logger): APIGatewayProxyResult {
  const oauthError = error instanceof OAuthError ? error : new ServerError(describe(error));
  if (oauthError.status >= 500) {
    log.error('request failed', { error: oauthError.code, reason: oauthError.reason, cause: error });
  } else {
    log.info('request refused', { error: oauthError.code, status: oauthError.status, reason: oauthError.reason });
  }
  return jsonResponse(
    oauthError.status,
    { error: oauthError.code, error_description: oauthError.description },
    { headers: oauthError.headers },
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
