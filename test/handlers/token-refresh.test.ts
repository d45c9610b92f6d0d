/**
 * POST /api/token, grant_type=refresh_token (RFC 6749 6, OAuth 2.1 4.3, RFC 9700 4.14.2,
 * RFC 8707 2.2, behaviour REFRESH-5): rotation, reuse detection, scope narrowing, the resource binding,
 * and the environment re-check on every rotation.
 */
import type { User } from '../../lambdas/core/model';
import { getEnvironments, getUsers } from '../../lambdas/wiring/repositories';
import { activityOf, claimsOf, introspectWith, refresh, resourceA, resourceB, signedIn, storedFor } from '../support/token-calls';
import { createTokenClient, createTokenUser, grantEnvironment, setUpTokenFamily, type TestClient } from '../support/fixtures';

let environmentId: string;
let user: User;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, resourceServer } = await setUpTokenFamily());
});

const newApp = () => createTokenClient({ environmentId });

describe('rotation (OAuth 2.1 4.3.1)', () => {
  it('answers a new access token and a new refresh token, and logs the rotation', async () => {
    const { client } = await newApp();
    const first = await signedIn(client, user, { scopes: ['openid', 'read'] });
    const rotated = await refresh(client, String(first.refresh_token));
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid read' });
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.body.access_token).not.toBe(first.access_token);
    expect(rotated.body).not.toHaveProperty('id_token');
    expect(claimsOf(rotated.body.access_token).sub).toBe(user.id);
    // The successor rotates in turn.
    expect((await refresh(client, String(rotated.body.refresh_token))).status).toBe(200);
    const rows = await activityOf(client.clientId);
    expect(rows.filter((r) => r.requestType === 'refresh_token' && r.success && r.userId === user.id)).toHaveLength(2);
  });

  it('refuses a rotated token and revokes its whole family (RFC 9700 4.14.2)', async () => {
    const { client } = await newApp();
    const first = await signedIn(client, user, { resource: resourceA });
    const second = await refresh(client, String(first.refresh_token));
    expect(second.status).toBe(200);

    const replay = await refresh(client, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');

    // The legitimate successor and every access token of the family stop working.
    const successor = await refresh(client, String(second.body.refresh_token));
    expect(successor.body.error).toBe('invalid_grant');
    for (const token of [first.access_token, second.body.access_token]) {
      expect((await introspectWith(resourceServer, String(token), { resource: resourceA })).body).toEqual({ active: false });
    }
    const failures = (await activityOf(client.clientId)).filter((r) => !r.success);
    expect(failures.map((r) => r.reason)).toEqual([expect.stringMatching(/reused/), expect.stringMatching(/revoked/)]);
  });
});

describe('scope (RFC 6749 6)', () => {
  it('may narrow: the access token carries the narrower scope, the grant keeps its own', async () => {
    const { client } = await newApp();
    const first = await signedIn(client, user, { scopes: ['openid', 'read', 'profile'] });
    const narrow = await refresh(client, String(first.refresh_token), { scope: 'read' });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe('read');
    expect(claimsOf(narrow.body.access_token).scope).toBe('read');
    // The new refresh token has the scope of the original grant (RFC 6749 6).
    const again = await refresh(client, String(narrow.body.refresh_token));
    expect(again.body.scope).toBe('openid read profile');
  });

  it('may not widen: invalid_scope (RFC 6749 5.2), and the token stays usable', async () => {
    const { client } = await newApp();
    const first = await signedIn(client, user, { scopes: ['read'] });
    const wider = await refresh(client, String(first.refresh_token), { scope: 'read write' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    expect((await refresh(client, String(first.refresh_token))).status).toBe(200);
  });
});

describe('the resource binding across rotation (RFC 8707 2.2, behaviour REFRESH-4)', () => {
  it('carries aud over, accepts the bound resource repeated, refuses another with invalid_target', async () => {
    const { client } = await newApp();
    const first = await signedIn(client, user, { resource: resourceA });
    const plain = await refresh(client, String(first.refresh_token));
    expect(claimsOf(plain.body.access_token).aud).toBe(resourceA);
    const repeated = await refresh(client, String(plain.body.refresh_token), { resource: resourceA });
    expect(repeated.status).toBe(200);
    expect(claimsOf(repeated.body.access_token).aud).toBe(resourceA);

    const other = await refresh(client, String(repeated.body.refresh_token), { resource: resourceB });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_target');
    // Refused before anything was consumed: the token still rotates.
    expect((await refresh(client, String(repeated.body.refresh_token))).status).toBe(200);
  });
});

describe('environment access, re-checked on every rotation (behaviour REFRESH-5)', () => {
  it('refuses once access is revoked, and a later re-grant does not revive the sign-in', async () => {
    const { client } = await newApp();
    const member = await createTokenUser([environmentId]);
    const first = await signedIn(client, member);
    const second = await refresh(client, String(first.refresh_token));
    expect(second.status).toBe(200);

    await getEnvironments().revoke(member.id, environmentId);
    const refused = await refresh(client, String(second.body.refresh_token));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    const rows = await activityOf(client.clientId);
    expect(rows.find((r) => !r.success)?.reason).toMatch(/lost access to environment/);

    await grantEnvironment(member.id, environmentId, new Date().toISOString());
    expect((await refresh(client, String(second.body.refresh_token))).body.error).toBe('invalid_grant');
  });

  it('refuses once the user is deleted', async () => {
    const { client } = await newApp();
    const member = await createTokenUser([environmentId]);
    const first = await signedIn(client, member);
    await getUsers().delete(member);
    const refused = await refresh(client, String(first.refresh_token));
    expect(refused.body.error).toBe('invalid_grant');
  });
});

describe('RFC 6749 5.2 rows of the refresh grant', () => {
  it('invalid_grant: a refresh token issued to another client; nothing is written', async () => {
    const { client } = await newApp();
    const { client: other } = await newApp();
    const first = await signedIn(client, user);
    const stolen = await refresh(other, String(first.refresh_token));
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect(await storedFor(other.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    // Not a reuse: the owner's token still rotates.
    expect((await refresh(client, String(first.refresh_token))).status).toBe(200);
  });

  it('invalid_grant: an unknown refresh token', async () => {
    const { client } = await newApp();
    const unknown = await refresh(client, 'dW5rbm93bi1yZWZyZXNoLXRva2VuLXZhbHVlLXh4eHh4eHg');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_grant');
  });

  it('unauthorized_client: a client not registered for refresh_token', async () => {
    const { client } = await createTokenClient({ environmentId, grantTypes: ['authorization_code'] });
    const denied = await refresh(client, 'dW5rbm93bi1yZWZyZXNoLXRva2VuLXZhbHVlLXh4eHh4eHg');
    expect(denied.status).toBe(400);
    expect(denied.body.error).toBe('unauthorized_client');
  });

  it('invalid_request: no refresh_token parameter', async () => {
    const { client } = await newApp();
    const missing = await refresh(client, '');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });
});
