/**
 * Every route in the table, sent malformed input: the answer is never a 5xx, and every
 * error body has the `{ error, error_description }` shape. New rows are covered as they
 * are added.
 */
import type { LambdaHandler } from '../../lambdas/http/handler';
import { routes } from '../../lambdas/routes';
import { apiGatewayEvent, lambdaContext } from '../support/events';

const malformed: { name: string; headers: Record<string, string>; body: string | undefined }[] = [
  { name: 'truncated JSON', headers: { 'Content-Type': 'application/json' }, body: '{"a":' },
  { name: 'JSON array', headers: { 'Content-Type': 'application/json' }, body: '[1,2,3]' },
  { name: 'repeated form field', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1&a=2' },
  { name: 'unknown media type', headers: { 'Content-Type': 'text/xml' }, body: '<a/>' },
  { name: 'oversized body', headers: { 'Content-Type': 'application/json' }, body: `{"a":"${'x'.repeat(200_000)}"}` },
  { name: 'no body and no headers', headers: {}, body: undefined },
];

describe.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s with malformed input', (_name, route) => {
  it.each(malformed)('$name: answers below 500, errors in the OAuth shape', async ({ headers, body }) => {
    const { handler } = (await import(`../../lambdas/handlers/${route.handler}`)) as { handler: LambdaHandler };
    const path = route.path.replace(/\{[^}]+\}/g, 'x');
    const result = await handler(apiGatewayEvent({ method: route.method, path, resource: route.path, headers, body }), lambdaContext);
    expect(result.statusCode).toBeLessThan(500);
    if (result.statusCode >= 400) {
      expect(Object.keys(JSON.parse(result.body) as object).sort()).toEqual(['error', 'error_description']);
    }
  });
});
