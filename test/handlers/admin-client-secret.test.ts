/** POST /api/admin/clients/{client_id}/secret: rotation with an overlap (behaviour ADMIN-20). */
import { handler as rotate } from '../../lambdas/handlers/admin/clients-secret-rotate';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { auditPartition, callAdmin, ensureScopes } from '../support/admin-calls';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createClientWithSecret, issueAccessToken, unique } from '../support/fixtures';
import { basic, postToken } from '../support/token-calls';

let token: string;
beforeAll(async () => {
  await ensureScopes('admin');
  token = (await adminClientToken()).token;
});

const rotateSecret = (clientId: string, body?: unknown, as = token) =>
  callAdmin(rotate, { token: as, method: 'POST', pathParameters: { client_id: clientId }, ...(body !== undefined ? { body } : {}) });
const clientCredentials = (clientId: string, secret: string) =>
  postToken({ grant_type: 'client_credentials' }, { headers: { Authorization: basic(clientId, secret) } });
const secretAudit = async (clientId: string) =>
  (await auditPartition(`AUDIT#${clientId}`)).filter((entry) => entry.type === 'client.secret_rotate');

describe('POST /api/admin/clients/{client_id}/secret (behaviour ADMIN-20)', () => {
  it('answers a new secret once; old and new both work at the token endpoint during the overlap; the old is refused after it', async () => {
    const { client, secret: old } = await createClientWithSecret();
    const before = Date.now();
    // Long enough for the rotation's mail to the admins and two Argon2id checks on a loaded machine.
    const result = await rotateSecret(client.clientId, { overlap_seconds: 4 });
    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(Object.keys(body).sort()).toEqual(['client_id', 'client_secret', 'previous_secret_expires_at']);
    const fresh = String(body.client_secret);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(old);
    const overlapEnds = Date.parse(String(body.previous_secret_expires_at));
    expect(overlapEnds).toBeGreaterThan(before);
    expect((await clientCredentials(client.clientId, old!)).status).toBe(200);
    expect((await clientCredentials(client.clientId, fresh)).status).toBe(200);
    // The old secret is now in the verified-secret cache: it must still stop when the overlap ends.
    await new Promise((resolve) => setTimeout(resolve, overlapEnds - Date.now() + 50));
    const refused = await clientCredentials(client.clientId, old!);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect((await clientCredentials(client.clientId, fresh)).status).toBe(200);
  });

  it('defaults to a 24-hour overlap and writes one client.secret_rotate entry, never the secret (behaviour LOG-9)', async () => {
    const { client } = await createClientWithSecret();
    const result = await rotateSecret(client.clientId);
    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    const overlap = Date.parse(String(body.previous_secret_expires_at)) - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    const entries = await secretAudit(client.clientId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: 'client.secret_rotate', clientId: client.clientId, actor: { kind: 'admin-client' } });
    expect(JSON.stringify(entries[0])).not.toContain(String(body.client_secret));
    expect(JSON.stringify(entries[0])).not.toMatch(/argon2/);
  });

  it('with overlap_seconds 0 the old secret stops at once', async () => {
    const { client, secret: old } = await createClientWithSecret();
    const result = await rotateSecret(client.clientId, { overlap_seconds: 0 });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).previous_secret_expires_at).toBeNull();
    expect((await clientCredentials(client.clientId, old!)).status).toBe(401);
    expect((await clientCredentials(client.clientId, String(jsonBody(result).client_secret))).status).toBe(200);
  });

  it('a rotation during an overlap replaces the previous secret: at most two work at a time', async () => {
    const { client, secret: first } = await createClientWithSecret();
    const second = String(jsonBody(await rotateSecret(client.clientId)).client_secret);
    const third = String(jsonBody(await rotateSecret(client.clientId)).client_secret);
    expect((await clientCredentials(client.clientId, first!)).status).toBe(401);
    expect((await clientCredentials(client.clientId, second)).status).toBe(200);
    expect((await clientCredentials(client.clientId, third)).status).toBe(200);
    expect(await secretAudit(client.clientId)).toHaveLength(2);
  });

  it.each([
    ['a public client', { kind: 'app' as const }, /public client: it has no secret/],
    ['a private_key_jwt client', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] } }, /private_key_jwt/],
  ])('refuses %s with 400 invalid_request, nothing written', async (_name, options, description) => {
    const client = await createClient(options);
    const result = await rotateSecret(client.clientId);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(String(jsonBody(result).error_description)).toMatch(description);
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
    expect(await secretAudit(client.clientId)).toHaveLength(0);
  });

  it.each([
    ['a negative overlap', { overlap_seconds: -1 }],
    ['an overlap over 7 days', { overlap_seconds: 7 * 24 * 3600 + 1 }],
    ['a fractional overlap', { overlap_seconds: 1.5 }],
    ['a string overlap', { overlap_seconds: '60' }],
    ['an unknown field', { overlap: 60 }],
  ])('refuses %s with 400 invalid_request naming the field, nothing written', async (_name, body) => {
    const { client } = await createClientWithSecret();
    const result = await rotateSecret(client.clientId, body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(String(jsonBody(result).error_description)).toMatch(/overlap/);
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
    expect(await secretAudit(client.clientId)).toHaveLength(0);
  });

  it('404 not_found for an unknown client (behaviour ADMIN-3)', async () => {
    const clientId = unique('tgc_missing');
    const result = await rotateSecret(clientId);
    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual({ error: 'not_found', error_description: `No client "${clientId}".` });
  });

  it('403 access_denied for a token that may not use the admin API, nothing written (behaviour ADMIN-1)', async () => {
    const { client } = await createClientWithSecret();
    const caller = await createClient({ scopes: ['admin'] });
    const { token: plain } = await issueAccessToken({ clientId: caller.clientId, scopes: ['admin'] });
    const result = await rotateSecret(client.clientId, undefined, plain);
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).error).toBe('access_denied');
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
    expect(await secretAudit(client.clientId)).toHaveLength(0);
  });
});
