/**
 * The synthesized API answers CORS preflights exactly for the route rows flagged `crossOrigin`
 * (behaviour HTTP-6, HTTP-8): an `OPTIONS` mock method per such path, beside the path's other
 * methods in its family's nested stack, with the headers of lambdas/http/cors.ts; every other
 * path leaves `OPTIONS` to the fallback's `ANY` (405, no CORS headers).
 */
import { preflightHeaders } from '../../lambdas/http/cors';
import { routes } from '../../lambdas/routes';
import { crossOriginMethodsByPath } from '../../lib/cors-preflight';
import { methodPath, resources, synthesize, type Synthesized } from './synthesize';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const optionsMethods = () =>
  Object.values(resources(synthesized.template, 'AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod === 'OPTIONS');

test('one OPTIONS method per path of a crossOrigin row, none elsewhere (behaviour HTTP-6, HTTP-8)', () => {
  const flaggedPaths = [...new Set(routes.filter((r) => r.crossOrigin).map((r) => r.path))].sort();
  expect(flaggedPaths.length).toBeGreaterThan(0);
  expect(
    optionsMethods()
      .map((m) => methodPath(synthesized.template, m))
      .sort(),
  ).toEqual(flaggedPaths);
  expect(optionsMethods().some((m) => methodPath(synthesized.template, m).startsWith('/api/admin'))).toBe(false);
  expect(optionsMethods().some((m) => methodPath(synthesized.template, m).startsWith('/api/auth'))).toBe(false);
});

test('each preflight is answered by API Gateway itself (no function, no authorizer) with 204, any origin, the rows’ methods, Authorization and Content-Type, and no Allow-Credentials', () => {
  const byPath = crossOriginMethodsByPath(routes);
  for (const method of optionsMethods()) {
    const path = methodPath(synthesized.template, method);
    const { Integration, MethodResponses, AuthorizationType } = method.Properties;
    expect(Integration.Type).toBe('MOCK');
    expect(AuthorizationType).toBe('NONE');
    const response = Integration.IntegrationResponses[0];
    expect(response.StatusCode).toBe('204');
    const expected = Object.fromEntries(
      Object.entries(preflightHeaders(byPath.get(path)!)).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
    );
    expect(response.ResponseParameters).toEqual(expected);
    expect(response.ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe("'*'");
    expect(response.ResponseParameters['method.response.header.Access-Control-Allow-Methods']).toContain(byPath.get(path)![0]);
    expect(JSON.stringify(response.ResponseParameters)).not.toContain('Allow-Credentials');
    expect(MethodResponses[0].StatusCode).toBe('204');
  }
});
