import { handler as fallback } from '../../lambdas/handlers/fallback';
import { handler as health } from '../../lambdas/handlers/health';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

describe('GET /api/health (behaviour HTTP-5)', () => {
  it('answers 200 ok, never cached', async () => {
    const result = await health(apiGatewayEvent({ path: '/api/health' }), lambdaContext);
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).status).toBe('ok');
    expect(headerOf(result, 'cache-control')).toBe('no-store');
  });
});

describe('requests no route takes', () => {
  it('answers an unknown path with 404 in the OAuth error shape', async () => {
    const result = await fallback(apiGatewayEvent({ path: '/api/nothing-here', resource: '/{proxy+}' }), lambdaContext);
    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual({ error: 'not_found', error_description: 'No such endpoint.' });
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const result = await fallback(apiGatewayEvent({ method: 'DELETE', path: '/api/health', resource: '/api/health' }), lambdaContext);
    expect(result.statusCode).toBe(405);
    expect(headerOf(result, 'allow')).toBe('GET');
    expect(jsonBody(result).error).toBe('method_not_allowed');
  });
});
