/**
 * Preflight answers for the route rows flagged `crossOrigin` (behaviour HTTP-6): one `OPTIONS`
 * method per such path, answered by API Gateway itself (a mock integration, no function), with
 * the same headers the local server sends (lambdas/http/cors.ts). lib/route-api.ts puts it
 * beside the path's other methods, in its family's nested stack. Paths without a flagged row have
 * no `OPTIONS` method: the fallback's `ANY` answers 405 without CORS headers (behaviour HTTP-8).
 */
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { preflightHeaders } from '../lambdas/http/cors';
import type { Route } from '../lambdas/routes';

/** The methods of the flagged rows, by path. */
export function crossOriginMethodsByPath(routes: readonly Route[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) {
    if (route.crossOrigin) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  }
  return byPath;
}

/** The `OPTIONS` method of a path whose flagged rows take these methods. */
export function preflightMethod(methods: readonly string[]): { integration: apigateway.Integration; options: apigateway.MethodOptions } {
  // Header values are mapping expressions: literals are single-quoted.
  const headers = Object.entries(preflightHeaders(methods));
  const integration = new apigateway.MockIntegration({
    requestTemplates: { 'application/json': '{ "statusCode": 204 }' },
    integrationResponses: [
      {
        statusCode: '204',
        responseParameters: Object.fromEntries(headers.map(([name, value]) => [`method.response.header.${name}`, `'${value}'`])),
      },
    ],
  });
  const options: apigateway.MethodOptions = {
    methodResponses: [
      { statusCode: '204', responseParameters: Object.fromEntries(headers.map(([name]) => [`method.response.header.${name}`, true])) },
    ],
  };
  return { integration, options };
}
