/**
 * The admin allowlist on the self-service key routes (behaviour EDGE-4): the
 * web ACL lets these routes through from anywhere so end users can reach them; their functions
 * hold admin callers (admin clients, admin users) to ADMIN_ALLOWED_CIDRS themselves, by API
 * Gateway's source address, with the web ACL's own 403 body. The end user is let in from anywhere.
 */
// Set before the container loads its configuration (first handler call): as the construct sets it on these rows.
process.env.ADMIN_ALLOWED_CIDRS = '198.51.100.0/24, 2001:db8::/32';

import type { APIGatewayProxyResult } from 'aws-lambda';
import { handler as createKey } from '../../lambdas/handlers/admin/api-keys-create';
import { handler as listKeys } from '../../lambdas/handlers/admin/api-keys-list';
import { handler as revokeKey } from '../../lambdas/handlers/admin/api-keys-revoke';
import type { LambdaHandler } from '../../lambdas/http/handler';
import { passwordAndCodeAmr } from '../../lambdas/core/account/second-factor';
import type { Client, User } from '../../lambdas/core/model';
import { keysPath, useOutbox } from '../support/api-keys';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { adminClientToken, adminUserToken, createClient, createUser, issueAccessToken } from '../support/fixtures';

useOutbox();

const inside = '198.51.100.20';
const insideV6 = '2001:db8:1::5';
const outside = '203.0.113.9';

let adminClient: string;
let adminUser: string;
let client: Client;
let user: User;
let own: string;

beforeAll(async () => {
  adminClient = (await adminClientToken()).token;
  adminUser = (await adminUserToken()).token;
  client = await createClient({ name: 'Reports app', scopes: ['read'] });
  user = await createUser();
  own = (await issueAccessToken({ clientId: client.clientId, sub: user.id, scopes: ['read'], amr: passwordAndCodeAmr })).token;
});

afterAll(() => {
  delete process.env.ADMIN_ALLOWED_CIDRS;
});

function call(handler: LambdaHandler, token: string, sourceIp: string, extra: { method?: string; keyId?: string; body?: unknown } = {}) {
  return handler(
    apiGatewayEvent({
      method: extra.method ?? 'GET',
      path: extra.keyId ? `${keysPath(client.clientId)}/${extra.keyId}` : keysPath(client.clientId),
      headers: { Authorization: `Bearer ${token}`, ...(extra.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      pathParameters: { client_id: client.clientId, ...(extra.keyId ? { key_id: extra.keyId } : {}) },
      ...(extra.body !== undefined ? { body: JSON.stringify(extra.body) } : {}),
      sourceIp,
    }),
    lambdaContext,
  );
}

function expectNetworkRefusal(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(403);
  // Word for word what the web ACL answers on the other admin paths (lib/web-acl.ts).
  expect(jsonBody(result)).toEqual({ error: 'access_denied', error_description: 'This endpoint is not reachable from your network.' });
}

describe('behaviour EDGE-4: admin callers of the self-service key routes must come from ADMIN_ALLOWED_CIDRS', () => {
  it('an admin client token from outside the list: 403 access_denied on create, list and revoke, and nothing is written', async () => {
    expectNetworkRefusal(await call(createKey, adminClient, outside, { method: 'POST', body: { userId: user.id, name: 'from outside' } }));
    expectNetworkRefusal(await call(listKeys, adminClient, outside));
    const created = await call(createKey, adminClient, inside, { method: 'POST', body: { userId: user.id, name: 'from inside' } });
    expect(created.statusCode).toBe(201);
    const keyId = String(jsonBody(created).key_id);
    expectNetworkRefusal(await call(revokeKey, adminClient, outside, { method: 'DELETE', keyId }));
    const listed = jsonBody(await call(listKeys, adminClient, inside)).items as { key_id: string; name?: string; status: string }[];
    expect(listed.map((k) => [k.name, k.status])).toEqual([['from inside', 'active']]);
  });

  it("an admin user's token from outside the list: 403 access_denied; from inside (IPv4 or IPv6): allowed", async () => {
    expectNetworkRefusal(await call(listKeys, adminUser, outside));
    expect((await call(listKeys, adminUser, inside)).statusCode).toBe(200);
    expect((await call(listKeys, adminUser, insideV6)).statusCode).toBe(200);
  });

  it('the end user (self-service) from anywhere: creates, lists and revokes its own key', async () => {
    const created = await call(createKey, own, outside, { method: 'POST', body: { name: 'laptop' } });
    expect(created.statusCode).toBe(201);
    expect((await call(listKeys, own, outside)).statusCode).toBe(200);
    expect((await call(revokeKey, own, outside, { method: 'DELETE', keyId: String(jsonBody(created).key_id) })).statusCode).toBe(200);
  });

  it('a request without a token is still 401 from anywhere (the caller check comes first)', async () => {
    const result = await listKeys(
      apiGatewayEvent({ path: keysPath(client.clientId), pathParameters: { client_id: client.clientId }, sourceIp: outside }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(401);
  });
});
