import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import { handler as metadataHandler } from '../../lambdas/handlers/oauth-authorization-server-metadata';
import { handler as openIdHandler } from '../../lambdas/handlers/openid-configuration';
import { getStorage } from '../../lambdas/wiring/storage';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

beforeAll(async () => {
  const { db, tables } = getStorage();
  const scopes = new DynamoScopeRepository(db, tables.main);
  await scopes.createScope({ name: 'openid', description: 'OpenID Connect', discoverable: true });
  await scopes.createScope({ name: 'admin', description: 'Administration', discoverable: false });
});

describe('GET /.well-known/oauth-authorization-server (RFC 8414, behaviour DISC-1, DISC-2)', () => {
  const event = apiGatewayEvent({ path: '/.well-known/oauth-authorization-server' });

  it('answers 200 with the issuer, endpoints and scopes read from DynamoDB', async () => {
    const result = await metadataHandler(event, lambdaContext);
    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body.issuer).toBe(process.env.BASE_URL);
    expect(body.registration_endpoint).toBe(`${process.env.BASE_URL}/api/register`);
    expect(body.resource_parameter_supported).toBe(true);
    expect(body.scopes_supported).toContain('openid');
    expect(body.scopes_supported).not.toContain('admin');
  });

  it('is public and cacheable (behaviour DISC-1), with the JSON security headers', async () => {
    const result = await metadataHandler(event, lambdaContext);
    expect(headerOf(result, 'cache-control')).toBe('public, max-age=300');
    expect(headerOf(result, 'content-type')).toBe('application/json; charset=utf-8');
    expect(headerOf(result, 'x-content-type-options')).toBe('nosniff');
  });
});

describe('GET /.well-known/openid-configuration (behaviour DISC-1)', () => {
  it('answers 200 with the same issuer and the OIDC fields, cacheable', async () => {
    const result = await openIdHandler(apiGatewayEvent({ path: '/.well-known/openid-configuration' }), lambdaContext);
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ issuer: process.env.BASE_URL, subject_types_supported: ['public'] });
    expect(headerOf(result, 'cache-control')).toBe('public, max-age=300');
  });
});
