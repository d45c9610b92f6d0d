import { createRouter } from '../../../lambdas/http/router';
import { routes, type Route } from '../../../lambdas/routes';

const row = (method: Route['method'], path: string): Route => ({
  name: `${method}${path}`,
  method,
  path,
  handler: 'x',
  auth: 'none',
  storage: {},
});

describe('router (the local server resolves requests as API Gateway does)', () => {
  const route = createRouter([
    row('GET', '/api/admin/clients/{client_id}/api-keys'),
    row('POST', '/api/admin/clients/{client_id}/api-keys'),
    row('DELETE', '/api/admin/clients/{client_id}/api-keys/{key_id}'),
    row('POST', '/api/token'),
    row('POST', '/api/token/api-key'),
    row('POST', '/api/token/{anything}'),
  ]);

  it('matches path parameters, decoded', () => {
    const found = route('DELETE', '/api/admin/clients/tgc_a%2Bb/api-keys/0123abcd');
    expect(found).toMatchObject({ kind: 'match', pathParameters: { client_id: 'tgc_a+b', key_id: '0123abcd' } });
  });

  it('prefers the literal resource over a parameter, as API Gateway does', () => {
    const found = route('POST', '/api/token/api-key');
    expect(found.kind === 'match' && found.route.path).toBe('/api/token/api-key');
  });

  it('answers method-not-allowed with the allowed methods for a known path', () => {
    expect(route('PUT', '/api/admin/clients/c1/api-keys')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'POST'] });
  });

  it('answers not-found for unknown paths and for extra segments', () => {
    expect(route('GET', '/api/nothing')).toEqual({ kind: 'not-found' });
    expect(route('POST', '/api/token/a/b')).toEqual({ kind: 'not-found' });
  });
});

describe('route table', () => {
  it('has unique names and unique method+path pairs', () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it('names handler files that exist and export a handler', async () => {
    for (const r of routes) {
      const module = (await import(`../../../lambdas/handlers/${r.handler}`)) as { handler?: unknown };
      expect(typeof module.handler).toBe('function');
    }
  });

  it('fits every edge rule within AWS WAF bounds (limit >= 10; window 60, 120, 300 or 600 s)', () => {
    for (const r of routes.filter((x) => x.edge)) {
      expect(r.edge!.limit).toBeGreaterThanOrEqual(10);
      expect([60, 120, 300, 600]).toContain(r.edge!.windowSeconds);
    }
  });
});
