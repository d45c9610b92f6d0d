/**
 * The token-issuing doors (POST /api/token, POST /api/token/api-key). Each door says what it
 * issues; this wrapper keeps the rest the same way for all of them: one activity row per attempt
 * (behaviour TOKEN-5, LOG-1, LOG-2), written inside the issuance write on success (the door's
 * step does that) and here with the real reason on failure, and the issued/refused metrics.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { TokenRequestActivity } from '../core/grants/activity';
import type { TokenResponse } from '../core/grants/response';
import { OAuthError } from '../core/errors';
import type { MetricName } from '../core/metrics';
import type { Container } from '../http/container';
import { errorCodeOf } from '../http/errors';
import type { EndpointOptions } from '../http/handler';
import { labelClient } from '../http/request-context';
import { jsonResponse } from '../http/response';
import { httpHandler } from './handler';
import { getTokenStore } from './repositories';

export interface TokenDoor {
  /** The activity row's request type when the door issues one kind only; else the door names it once it knows. */
  readonly requestType?: TokenRequestActivity['requestType'];
  readonly metrics: {
    readonly issued: MetricName;
    readonly refused: MetricName;
    /** Label both counts with the activity's request type as `grant` (the token endpoint's grants). */
    readonly byGrant: boolean;
  };
  /** Reads the request and issues; tells `activity` what it learns, and writes its success row with what it issues. */
  issue(event: APIGatewayProxyEvent, activity: TokenRequestActivity, container: Container): Promise<TokenResponse>;
}

/** The failure row, with the code the caller was answered with and the internal reason after it. */
function failureReason(error: unknown): string {
  // lambdas/http/errors.ts maps a database that did not answer to 503 temporarily_unavailable.
  const code = errorCodeOf(error);
  return error instanceof OAuthError ? `${code}: ${error.reason}` : `${code}: ${(error as Error)?.name ?? 'unknown'}`;
}

export function tokenEndpoint(door: TokenDoor, options?: EndpointOptions) {
  return httpHandler(async (event, container) => {
    // The client IP is API Gateway's view of the peer, never a forwarded header (a header is the caller's to forge).
    const activity = new TokenRequestActivity(
      event.requestContext?.identity?.sourceIp ?? 'unknown',
      container.clock,
      container.random,
      labelClient,
    );
    if (door.requestType) activity.ofType(door.requestType);
    const grant = (): Record<string, string> => (door.metrics.byGrant ? { grant: activity.requestType } : {});
    try {
      const response = await door.issue(event, activity, container);
      container.metrics.count(door.metrics.issued, grant());
      return jsonResponse(200, response);
    } catch (error) {
      container.metrics.count(door.metrics.refused, { ...grant(), error: errorCodeOf(error) });
      try {
        await getTokenStore().recordActivity(activity.row(false, failureReason(error)));
      } catch (writeError) {
        // A failed log write must not hide the request's own failure.
        container.log.error('activity row not written', { cause: writeError });
      }
      throw error;
    }
  }, options);
}
