/**
 * The OpenAPI document: generated from the route table and the handlers' request
 * schemas by bin/openapi.ts, committed as docs/openapi.json and served at GET /openapi.json.
 * CI fails when the committed file is stale, a route row is undocumented or a documented
 * operation is no route. Errors use the RFC 6749 5.2 shape (behaviour ERR-1).
 */
import { readFileSync } from 'node:fs';
import { openApiDocument, openApiFile, serializeOpenApi } from '../../../bin/openapi';
import { handler } from '../../../lambdas/handlers/openapi-document';
import { routes, type Route } from '../../../lambdas/routes';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../../support/events';

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read by path; a wrong path fails the assertion anyway
type Json = any;
type Operation = Json;
const generated = openApiDocument() as { openapi: string; paths: Record<string, Record<string, Operation>>; components: Json };
const operations = Object.entries(generated.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);

describe('OpenAPI document', () => {
  test('docs/openapi.json is what `npm run openapi` generates now: regenerate it after changing routes or schemas', () => {
    expect(readFileSync(openApiFile, 'utf8')).toBe(serializeOpenApi(generated));
  });

  test('is OpenAPI 3.1 and documents every route row, by its method and path, once', () => {
    expect(generated.openapi).toBe('3.1.0');
    for (const route of routes) expect(generated.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.name);
  });

  test('documents no operation that is not a route row', () => {
    const rows = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const { path, method } of operations) expect(rows.has(`${method} ${path}`)).toBe(true);
    expect(operations).toHaveLength(routes.length);
  });

  test('a route row without documentation fails the build, naming the row', () => {
    const undocumented: Route = {
      name: 'Undocumented',
      method: 'GET',
      path: '/api/undocumented',
      handler: 'health',
      auth: 'none',
      storage: {},
    };
    expect(() => openApiDocument([...routes, undocumented])).toThrow(/Undocumented \(GET \/api\/undocumented\)/);
  });

  test('every operation answers refusals in the RFC 6749 5.2 error shape { error, error_description }', () => {
    const error = generated.components.schemas.Error;
    expect(error.required).toEqual(['error']);
    expect(Object.keys(error.properties)).toEqual(['error', 'error_description']);
    for (const { operation } of operations) {
      for (const status of ['4XX', '5XX']) {
        expect(operation.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  test('request bodies come from the schemas the handlers validate with (registration, token grants, admin)', () => {
    const register = generated.paths['/api/register']!.post!.requestBody.content['application/json'].schema;
    expect(register.required).toEqual(['redirect_uris']);
    expect(register.properties.client_name).toMatchObject({ type: 'string', maxLength: 200 });
    const token = generated.paths['/api/token']!.post!.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(token.oneOf.map((g: Json) => g.properties.grant_type.const).sort()).toEqual([
      'authorization_code',
      'client_credentials',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);
    const code = token.oneOf.find((g: Json) => g.title === 'authorization_code');
    expect(code.required).toEqual(expect.arrayContaining(['grant_type', 'code', 'code_verifier']));
    // RFC 7523 2.1, behaviour JWTB-1.
    const jwtBearer = token.oneOf.find((g: Json) => g.title === 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(jwtBearer.required).toEqual(['grant_type', 'assertion']);
    const user = generated.paths['/api/admin/users']!.post!.requestBody.content['application/json'].schema;
    expect(user.required).toEqual(['name']);
    expect(user.additionalProperties).toBe(false);
  });

  test('the API-key create body keeps the spec’s own camelCase names userId and expiresAt, and says so', () => {
    const create = generated.paths['/api/admin/clients/{client_id}/api-keys']!.post!;
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['userId', 'expiresAt']),
    );
    expect(create.description).toMatch(/`userId` and `expiresAt`.*spec 2\.4/);
  });

  test('operations flag the cross-origin routes as the route table does (behaviour HTTP-6)', () => {
    for (const route of routes) {
      expect(generated.paths[route.path]![route.method.toLowerCase()]!['x-cross-origin']).toBe(route.crossOrigin === true);
    }
  });

  test('GET /openapi.json serves the committed document, cacheable and to any origin', async () => {
    const result = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json' }), lambdaContext);
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual(JSON.parse(readFileSync(openApiFile, 'utf8')));
    expect(headerOf(result, 'cache-control')).toBe('public, max-age=300');
    expect(headerOf(result, 'access-control-allow-origin')).toBe('*');
  });
});
