/**
 * Errors API Gateway answers by itself (throttling, unmatched paths, WAF blocks,
 * oversized bodies, integration failures) in the service's own error shape
 * `{ "error", "error_description" }`, so clients parse one shape whoever answered.
 */
import * as apigateway from 'aws-cdk-lib/aws-apigateway';

interface GatewayError {
  readonly type: apigateway.ResponseType;
  /** Omitted: keep the status API Gateway chose (the DEFAULT_* catch-alls). */
  readonly status?: number;
  readonly error: string;
  readonly description: string;
}

export const gatewayErrors: readonly GatewayError[] = [
  { type: apigateway.ResponseType.DEFAULT_4XX, error: 'invalid_request', description: 'The request was rejected.' },
  { type: apigateway.ResponseType.DEFAULT_5XX, error: 'server_error', description: 'The server could not handle the request.' },
  // Every routed path and `/{proxy+}` go to a function, so this means an intermediate
  // path such as `/api`: a plain 404, not API Gateway's misleading 403.
  { type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, error: 'not_found', description: 'No such endpoint.' },
  { type: apigateway.ResponseType.RESOURCE_NOT_FOUND, status: 404, error: 'not_found', description: 'No such endpoint.' },
  { type: apigateway.ResponseType.THROTTLED, status: 429, error: 'too_many_requests', description: 'Too many requests; retry later.' },
  { type: apigateway.ResponseType.QUOTA_EXCEEDED, status: 429, error: 'too_many_requests', description: 'Too many requests; retry later.' },
  { type: apigateway.ResponseType.WAF_FILTERED, status: 403, error: 'access_denied', description: 'The request was blocked.' },
  { type: apigateway.ResponseType.REQUEST_TOO_LARGE, status: 413, error: 'invalid_request', description: 'The request body is too large.' },
  { type: apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, error: 'invalid_request', description: 'Unsupported content type.' },
  {
    type: apigateway.ResponseType.INTEGRATION_TIMEOUT,
    status: 504,
    error: 'temporarily_unavailable',
    description: 'The server took too long to answer.',
  },
  {
    type: apigateway.ResponseType.INTEGRATION_FAILURE,
    status: 502,
    error: 'server_error',
    description: 'The server could not handle the request.',
  },
];

/** Header values are API Gateway mapping expressions: literals are single-quoted. */
const headers = {
  'Cache-Control': "'no-store'",
  'X-Content-Type-Options': "'nosniff'",
};

export function addGatewayResponses(api: apigateway.RestApi): void {
  for (const { type, status, error, description } of gatewayErrors) {
    api.addGatewayResponse(type.responseType, {
      type,
      ...(status ? { statusCode: String(status) } : {}),
      responseHeaders: headers,
      templates: { 'application/json': JSON.stringify({ error, error_description: description }) },
    });
  }
}
