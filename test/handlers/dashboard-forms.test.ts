/**
 * The dashboard's forms (behaviour DASH-13..DASH-17): a create answers 303 and a shown-once secret
 * reaches the page through a single-use record; a refused form comes back filled in; the client
 * form's defaults; what a deletion takes with it.
 */
import { randomBytes } from 'node:crypto';
import { DynamoShownOnceStore } from '../../lambdas/adapters/dynamodb/shown-once-store';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { ensureScopes } from '../support/admin-calls';
import { dashboardGet, dashboardPost, followRedirect, headerOf, newAdminSession, type DashboardSession } from '../support/dashboard-calls';
import { createClient, createClientWithSecret, createUser, testFileEnvironment } from '../support/fixtures';

beforeAll(async () => {
  await ensureScopes('read', 'write', 'openid');
});

async function entriesBy(adminId: string) {
  const page = await getAuditLog().page({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
    limit: 100,
  });
  return page.items.filter((entry) => entry.actor.kind === 'admin-user' && entry.actor.userId === adminId);
}

const secretOf = (body: string) => /id="client-secret">([^<]+)</.exec(body)?.[1];

async function createConfidential(session: DashboardSession, name = 'Forms client') {
  return dashboardPost(session, '/dashboard/clients/new', {
    type: 'confidential',
    name,
    environment_id: await testFileEnvironment(),
    scopes: 'read',
    redirect_uris: '',
  });
}

describe('behaviour DASH-13: every create answers 303; a secret is shown once through a single-use record', () => {
  it('a client: 303 to its shown-once page, the secret once (no-store, no-referrer), then "already shown"; one client, one entry', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    expect(created.statusCode).toBe(303);
    const location = String(headerOf(created, 'Location'));
    expect(location).toMatch(/^\/dashboard\/clients\/[^/]+\/created\/[A-Za-z0-9_-]{43}$/);
    expect(created.body).toBe('');

    const shown = await followRedirect(session, created);
    expect(shown.statusCode).toBe(200);
    expect(headerOf(shown, 'Cache-Control')).toMatch(/no-store/);
    expect(headerOf(shown, 'Referrer-Policy')).toBe('no-referrer');
    expect(shown.body).toContain('<meta name="referrer" content="no-referrer">');
    const secret = secretOf(shown.body)!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const clientId = /id="client-id">([^<]+)</.exec(shown.body)![1]!;

    const reload = await dashboardGet(session, location);
    expect(reload.statusCode).toBe(410);
    expect(reload.body).not.toContain(secret);
    expect(reload.body).toMatch(/id="already-shown"[^>]*>This secret was already shown/);
    expect(reload.body).toContain(`href="/dashboard/clients/${clientId}/secret"`);
    expect((await entriesBy(session.user.id)).map((e) => [e.type, e.clientId])).toEqual([['client.create', clientId]]);
  });

  it('the record holds the secret sealed with the handle, never in the clear, under the digest of the handle', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    const handle = String(headerOf(created, 'Location')).split('/').pop()!;
    const { db, tables } = getStorage();
    const { createHash } = await import('node:crypto');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const pk = `SHOWNONCE#${createHash('sha256').update(handle).digest('base64url')}`;
    const { Item } = await db.send(new GetCommand({ TableName: tables.ephemeral, Key: { pk, sk: 'SHOWNONCE' } }));
    expect(Item).toMatchObject({ adminId: session.user.id, purpose: 'client-secret' });
    expect(Item!.ttl).toBeGreaterThan(Date.now() / 1000 + 9 * 60);
    expect(Item!.ttl).toBeLessThanOrEqual(Date.now() / 1000 + 10 * 60 + 1);
    const secret = secretOf((await followRedirect(session, created)).body)!;
    expect(JSON.stringify(Item)).not.toContain(secret);
    expect(JSON.stringify(Item)).not.toContain(handle);
  });

  it('another admin cannot claim it (410, no secret) and the record stays for its own admin', async () => {
    const session = await newAdminSession();
    const other = await newAdminSession();
    const created = await createConfidential(session);
    const stolen = await followRedirect(other, created);
    expect(stolen.statusCode).toBe(410);
    expect(secretOf(stolen.body)).toBeUndefined();
    expect(secretOf((await followRedirect(session, created)).body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('an expired record (its ttl passed, TTL not yet run) shows nothing; a made-up handle neither', async () => {
    const session = await newAdminSession();
    const { client } = await createClientWithSecret();
    const handle = randomBytes(32).toString('base64url');
    const store = new DynamoShownOnceStore(getStorage().db, getStorage().tables.ephemeral);
    await store.keep(
      handle,
      session.user.id,
      { purpose: 'client-secret', clientId: client.clientId, secret: 'expired-secret' },
      Math.floor(Date.now() / 1000) - 1,
    );
    const expired = await dashboardGet(session, `/dashboard/clients/${client.clientId}/created/${handle}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).not.toContain('expired-secret');
    const madeUp = await dashboardGet(session, `/dashboard/clients/${client.clientId}/created/not-a-handle`);
    expect(madeUp.statusCode).toBe(410);
  });

  it('a handle kept for one purpose does not open on the page of another', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    const [, clientId, handle] = /^\/dashboard\/clients\/([^/]+)\/created\/(.+)$/.exec(String(headerOf(created, 'Location')))!;
    const asKey = await dashboardGet(session, `/dashboard/clients/${clientId}/new-key/${handle}`);
    expect(asKey.statusCode).toBe(410);
    expect(secretOf((await followRedirect(session, created)).body)).toBeDefined();
  });

  it('a public client has nothing to show: 303 to its page with a notice', async () => {
    const session = await newAdminSession();
    const created = await dashboardPost(session, '/dashboard/clients/new', {
      type: 'public',
      name: 'Public forms client',
      environment_id: await testFileEnvironment(),
      scopes: 'openid',
      redirect_uris: 'https://app.example.test/cb',
    });
    expect(String(headerOf(created, 'Location'))).toMatch(/^\/dashboard\/clients\/[^/?]+\?done=created$/);
    expect((await followRedirect(session, created)).body).toContain('The client was created.');
  });

  it('an API key: 303, the key once, then "already shown" with the way to a new key; one key', async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    const created = await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys`, { user: user.email!, name: 'Once key' });
    expect(String(headerOf(created, 'Location'))).toMatch(new RegExp(`^/dashboard/clients/${client.clientId}/new-key/[A-Za-z0-9_-]{43}$`));
    const shown = await followRedirect(session, created);
    const apiKey = /id="api-key">([^<]+)</.exec(shown.body)![1]!;
    const keyId = /id="key-id">([^<]+)</.exec(shown.body)![1]!;
    expect(apiKey).toContain(`tgk_${keyId}_`);
    expect((await getApiKeyStore().get(keyId))?.clientId).toBe(client.clientId);
    const reload = await followRedirect(session, created);
    expect(reload.statusCode).toBe(410);
    expect(reload.body).not.toContain(apiKey);
    expect(reload.body).toMatch(/This API key was already shown/);
    expect((await entriesBy(session.user.id)).filter((e) => e.type === 'api_key.create')).toHaveLength(1);
  });

  it('a rotated secret: 303, the new secret once with the overlap, then "already shown"', async () => {
    const session = await newAdminSession();
    const { client } = await createClientWithSecret();
    const confirmation = await dashboardGet(session, `/dashboard/clients/${client.clientId}/secret`);
    const rotating = /name="rotating" value="([^"]+)"/.exec(confirmation.body)![1]!;
    const rotated = await dashboardPost(session, `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '86400', rotating });
    expect(String(headerOf(rotated, 'Location'))).toMatch(/\/new-secret\/[A-Za-z0-9_-]{43}$/);
    const shown = await followRedirect(session, rotated);
    expect(secretOf(shown.body)).toBeDefined();
    expect(shown.body).toMatch(/The previous secret keeps working until /);
    const reload = await followRedirect(session, rotated);
    expect(reload.statusCode).toBe(410);
    expect(reload.body).toMatch(/This secret was already shown/);
    expect((await getClientRepository().get(client.clientId))?.secretHash).not.toBe(client.secretHash);
  });
});
