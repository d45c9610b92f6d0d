/**
 * A client's `require_pushed_authorization_requests` (RFC 9126 6, behaviour AUTHZ-18) as each door
 * sets it: the admin API's create and update (audited), and dynamic registration's metadata.
 */
import { randomUUID } from 'node:crypto';
import { handler as postClient } from '../../lambdas/handlers/admin/clients-create';
import { handler as getClient } from '../../lambdas/handlers/admin/clients-get';
import { handler as patchClient } from '../../lambdas/handlers/admin/clients-update';
import { handler as register } from '../../lambdas/handlers/register';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { auditPartition, callAdmin, ensureScopes } from '../support/admin-calls';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { adminClientToken, createEnvironment } from '../support/fixtures';

let token: string;
let environmentId: string;
beforeAll(async () => {
  await ensureScopes('openid', 'profile');
  token = (await adminClientToken()).token;
  environmentId = await createEnvironment('PAR clients');
});

const create = (body: Record<string, unknown>) =>
  callAdmin(postClient, {
    token,
    method: 'POST',
    body: { type: 'public', name: 'App', environment_id: environmentId, redirect_uris: ['https://app.example.test/cb'], ...body },
  });
const patch = (clientId: string, body: unknown) =>
  callAdmin(patchClient, { token, method: 'PATCH', pathParameters: { client_id: clientId }, body });

describe('admin API: require_pushed_authorization_requests (RFC 9126 6, behaviour AUTHZ-18)', () => {
  it('is off by default, set on create, shown by GET, changed by PATCH with an audit entry naming the field', async () => {
    expect(jsonBody(await create({})).require_pushed_authorization_requests).toBe(false);
    const created = jsonBody(await create({ require_pushed_authorization_requests: true }));
    expect(created.require_pushed_authorization_requests).toBe(true);
    const clientId = String(created.client_id);
    expect((await getClientRepository().get(clientId))?.requirePushedAuthorizationRequests).toBe(true);
    const read = await callAdmin(getClient, { token, method: 'GET', pathParameters: { client_id: clientId } });
    expect(jsonBody(read).require_pushed_authorization_requests).toBe(true);

    const patched = await patch(clientId, { require_pushed_authorization_requests: false });
    expect(patched.statusCode).toBe(200);
    expect(jsonBody(patched).require_pushed_authorization_requests).toBe(false);
    expect((await getClientRepository().get(clientId))?.requirePushedAuthorizationRequests).toBe(false);
    const entries = await auditPartition(partitions.auditOf({ clientId }));
    expect(entries.map((e) => [e.type, e.reason])).toContainEqual(['client.update', 'requirePushedAuthorizationRequests']);
  });

  it('400 invalid_request for a value that is not a boolean, with nothing changed', async () => {
    expect((await create({ require_pushed_authorization_requests: 'yes' })).statusCode).toBe(400);
    const clientId = String(jsonBody(await create({})).client_id);
    const refused = await patch(clientId, { require_pushed_authorization_requests: 'yes' });
    expect([refused.statusCode, jsonBody(refused).error]).toEqual([400, 'invalid_request']);
    expect((await getClientRepository().get(clientId))?.requirePushedAuthorizationRequests).toBeUndefined();
  });
});

describe('dynamic registration: require_pushed_authorization_requests (RFC 9126 6, RFC 7591 2)', () => {
  const registerWith = (extra: Record<string, unknown>) =>
    register(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/register',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:33418/callback'], scope: 'openid', ...extra }),
        sourceIp: `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 6)}`,
      }),
      lambdaContext,
    );

  it('a client may ask to be held to pushed requests; the answer echoes it and the record keeps it', async () => {
    const result = await registerWith({ require_pushed_authorization_requests: true });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body.require_pushed_authorization_requests).toBe(true);
    expect((await getClientRepository().get(String(body.client_id)))?.requirePushedAuthorizationRequests).toBe(true);
  });

  it('absent or false: not required, and not echoed', async () => {
    const body = jsonBody(await registerWith({ require_pushed_authorization_requests: false }));
    expect(body).not.toHaveProperty('require_pushed_authorization_requests');
    expect((await getClientRepository().get(String(body.client_id)))?.requirePushedAuthorizationRequests).toBeUndefined();
  });

  it('400 invalid_client_metadata for a value that is not a boolean', async () => {
    const result = await registerWith({ require_pushed_authorization_requests: 'true' });
    expect([result.statusCode, jsonBody(result).error]).toEqual([400, 'invalid_client_metadata']);
    expect(String(jsonBody(result).error_description)).toContain('require_pushed_authorization_requests');
  });
});
