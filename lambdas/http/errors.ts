import type { APIGatewayProxyResult } from 'aws-lambda';
import { isServiceUnavailable } from '../adapters/aws-errors';
import { OAuthError, ServerError, TemporarilyUnavailableError } from '../core/errors';
import type { Logger } from '../core/ports';
import { jsonResponse } from './response';

/**
 * The single error serializer: `{ "error", "error_description" }` (RFC 6749 5.2) for every
 * failure. Unknown errors become a generic 500 (a database that did not answer, a 503);
 * their detail goes to the log only.
 */
export function errorResponse(error: unknown, log: Logger): APIGatewayProxyResult {
  const oauthError =
    error instanceof OAuthError
      ? error
      : isServiceUnavailable(error)
        ? unavailable(error)
        : new ServerError(describe(error), { cause: error });
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

/**
 * The database (or another AWS service) failed for the client's whole retry budget: 503 with
 * Retry-After, so a client knows to try again (README "When the database has trouble").
 */
function unavailable(error: unknown): TemporarilyUnavailableError {
  return new TemporarilyUnavailableError('The service is temporarily unavailable; try again shortly.', describe(error), {
    headers: { 'Retry-After': '1' },
    cause: error,
  });
}

/**
 * The error code the caller is answered with (the `error` of errorResponse): a metric dimension and
 * the start of the activity row's reason.
 */
export function errorCodeOf(error: unknown): string {
  if (error instanceof OAuthError) return error.code;
  return isServiceUnavailable(error) ? 'temporarily_unavailable' : 'server_error';
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
