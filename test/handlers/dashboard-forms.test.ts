/**
 * The dashboard's forms (behaviour DASH-13..DASH-17): a create answers 303 and a shown-once secret
 * reaches the page through a single-use record; a refused form comes back filled in; the client
 * form's defaults; what a deletion takes with it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createHash, randomBytes } from 'node:crypto';
import { DynamoShownOnceStore } from '../../lambdas/adapters/dynamodb/shown-once-store';
import { namedDependents } from '../../lambdas/core/admin/dependents';
import { maxReadsPerPage } from '../../lambdas/core/admin/filtered-pages';
import { getClientRepository, getEnvironments } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { getContainer } from '../../lambdas/wiring/container';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { ensureScopes } from '../support/admin-calls';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import {
  auditEntriesBy,
  dashboardGet,
  dashboardPost,
  followRedirect,
  headerOf,
  newAdminSession,
  type DashboardSession,
} from '../support/dashboard-calls';
import {
  createClient,
  createClientWithSecret,
  createEnvironment,
  createTrustedIssuer,
  createUser,
  grantEnvironment,
  testFileEnvironment,
  uniqueSuffix,
} from '../support/fixtures';

beforeAll(async () => {
  await ensureScopes('read', 'write', 'openid');
});

const secretOf = (body: string) => /id="client-secret">([^<]+)</.exec(body)?.[1];
/** The handle a shown-once redirect carries in its query string (behaviour DASH-13). */
const handleOf = (location: unknown) => new URL(String(location), 'https://auth.example.test').searchParams.get('handle') ?? '';
const shownOnceItem = async (handle: string) => {
  const { db, tables } = getStorage();
  const pk = `SHOWNONCE#${createHash('sha256').update(handle).digest('base64url')}`;
  return (await db.send(new GetCommand({ TableName: tables.ephemeral, Key: { pk, sk: 'SHOWNONCE' } }))).Item;
};

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
    expect(location).toMatch(/^\/dashboard\/clients\/[^/]+\/created\?handle=[A-Za-z0-9_-]{43}$/);
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
    expect((await auditEntriesBy(session.user.id)).map((e) => [e.type, e.clientId])).toEqual([['client.create', clientId]]);
  });

  it('the record holds the secret sealed with the handle, never in the clear, under the digest of the handle', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    const handle = handleOf(headerOf(created, 'Location'));
    const Item = await shownOnceItem(handle);
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
    const expired = await dashboardGet(session, `/dashboard/clients/${client.clientId}/created?handle=${handle}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).not.toContain('expired-secret');
    const madeUp = await dashboardGet(session, `/dashboard/clients/${client.clientId}/created?handle=not-a-handle`);
    expect(madeUp.statusCode).toBe(410);
    expect((await dashboardGet(session, `/dashboard/clients/${client.clientId}/created`)).statusCode).toBe(410);
  });

  it('a handle kept for one purpose does not open on the page of another', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    const [, clientId, handle] = /^\/dashboard\/clients\/([^/]+)\/created\?handle=(.+)$/.exec(String(headerOf(created, 'Location')))!;
    const asKey = await dashboardGet(session, `/dashboard/clients/${clientId}/new-key?handle=${handle}`);
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
    expect(String(headerOf(created, 'Location'))).toMatch(
      new RegExp(`^/dashboard/clients/${client.clientId}/new-key\\?handle=[A-Za-z0-9_-]{43}$`),
    );
    const shown = await followRedirect(session, created);
    const apiKey = /id="api-key">([^<]+)</.exec(shown.body)![1]!;
    const keyId = /id="key-id">([^<]+)</.exec(shown.body)![1]!;
    expect(apiKey).toContain(`tgk_${keyId}_`);
    expect((await getApiKeyStore().get(keyId))?.clientId).toBe(client.clientId);
    const reload = await followRedirect(session, created);
    expect(reload.statusCode).toBe(410);
    expect(reload.body).not.toContain(apiKey);
    expect(reload.body).toMatch(/This API key was already shown/);
    expect((await auditEntriesBy(session.user.id)).filter((e) => e.type === 'api_key.create')).toHaveLength(1);
  });

  it('a rotated secret: 303, the new secret once with the overlap, then "already shown"', async () => {
    const session = await newAdminSession();
    const { client } = await createClientWithSecret();
    const confirmation = await dashboardGet(session, `/dashboard/clients/${client.clientId}/secret`);
    const rotating = /name="rotating" value="([^"]+)"/.exec(confirmation.body)![1]!;
    const rotated = await dashboardPost(session, `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '86400', rotating });
    expect(String(headerOf(rotated, 'Location'))).toMatch(/\/new-secret\?handle=[A-Za-z0-9_-]{43}$/);
    const shown = await followRedirect(session, rotated);
    expect(secretOf(shown.body)).toBeDefined();
    expect(shown.body).toMatch(/The previous secret keeps working until /);
    const reload = await followRedirect(session, rotated);
    expect(reload.statusCode).toBe(410);
    expect(reload.body).toMatch(/This secret was already shown/);
    expect((await getClientRepository().get(client.clientId))?.secretHash).not.toBe(client.secretHash);
  });

  it('the claim removes the sealed secret in the same update; the handle is in the query string, never the path', async () => {
    const session = await newAdminSession();
    const created = await createConfidential(session);
    const location = String(headerOf(created, 'Location'));
    const handle = handleOf(location);
    expect(new URL(location, 'https://auth.example.test').pathname).not.toContain(handle);
    expect(typeof (await shownOnceItem(handle))?.sealed).toBe('string');
    expect(secretOf((await followRedirect(session, created)).body)).toBeDefined();
    const claimed = await shownOnceItem(handle);
    expect(claimed).toMatchObject({ adminId: session.user.id, purpose: 'client-secret' });
    expect(claimed?.consumedBy).toEqual(expect.any(String));
    expect(claimed).not.toHaveProperty('sealed');
  });
});

describe('behaviour DASH-13: when the record cannot be kept, the POST shows the secret itself', () => {
  let faults: DynamoFaults;
  beforeEach(() => {
    faults = DynamoFaults.install().fail({ operation: 'PutItem', phase: 'before', where: (attempt) => touches(attempt, 'SHOWNONCE#') });
  });
  afterEach(() => faults.uninstall());

  const expectShownInTheAnswer = (response: APIGatewayProxyResult) => {
    expect(response.statusCode).toBe(200);
    expect(headerOf(response, 'Cache-Control')).toMatch(/no-store/);
    expect(headerOf(response, 'Referrer-Policy')).toBe('no-referrer');
    expect(response.body).toContain('<meta name="referrer" content="no-referrer">');
    expect(headerOf(response, 'Location')).toBeUndefined();
  };

  it('a client: 200 with the secret, the client created, one entry; the failure logged without the secret', async () => {
    const session = await newAdminSession();
    const logged = jest.spyOn(getContainer().log, 'error');
    const created = await createConfidential(session, 'Unkept forms client');
    expectShownInTheAnswer(created);
    expect(faults.injected.length).toBeGreaterThan(0);
    const clientId = /id="client-id">([^<]+)</.exec(created.body)![1]!;
    const secret = secretOf(created.body)!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const lines = logged.mock.calls.filter(([message]) => /not kept for one showing/.test(message));
    logged.mockRestore();
    expect(lines).toEqual([[expect.any(String), { purpose: 'client-secret', clientId, cause: expect.any(String) }]]);
    expect(JSON.stringify(lines)).not.toContain(secret);
    expect((await getClientRepository().get(clientId))?.secretHash).toEqual(expect.any(String));
    expect((await auditEntriesBy(session.user.id)).map((e) => [e.type, e.clientId])).toEqual([['client.create', clientId]]);
  });

  it('an API key: 200 with the key, the key stored', async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    const created = await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys`, { user: user.email!, name: 'Unkept key' });
    expectShownInTheAnswer(created);
    const keyId = /id="key-id">([^<]+)</.exec(created.body)![1]!;
    expect(/id="api-key">([^<]+)</.exec(created.body)![1]).toContain(`tgk_${keyId}_`);
    expect((await getApiKeyStore().get(keyId))?.clientId).toBe(client.clientId);
  });

  it('a secret rotated with no overlap (the old one already dead): 200 with the new secret, the rotation written', async () => {
    const session = await newAdminSession();
    const { client } = await createClientWithSecret();
    const confirmation = await dashboardGet(session, `/dashboard/clients/${client.clientId}/secret`);
    const rotating = /name="rotating" value="([^"]+)"/.exec(confirmation.body)![1]!;
    const rotated = await dashboardPost(session, `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '0', rotating });
    expectShownInTheAnswer(rotated);
    expect(secretOf(rotated.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body).toMatch(/The previous secret no longer works/);
    expect((await getClientRepository().get(client.clientId))?.secretHash).not.toBe(client.secretHash);
  });
});

const fieldErrorOf = (body: string, field: string) => new RegExp(`id="${field}-error">([^<]*)<`).exec(body)?.[1];

describe('behaviour DASH-13: the other creates answer 303 to the page of what they made', () => {
  it('a user, an environment, a scope and a trusted issuer: 303 with a Location to a GET page, the body empty', async () => {
    const session = await newAdminSession();
    const suffix = uniqueSuffix();
    const { jwks } = (await createTrustedIssuer()).trustedIssuer;
    const creates: [string, Record<string, string>, RegExp][] = [
      ['/dashboard/users/new', { name: 'PRG user', email: `prg-${suffix}@example.test` }, /^\/dashboard\/users\/[^/?]+\?done=created$/],
      [
        '/dashboard/environments/new',
        { id: `env_prg${suffix}`.slice(0, 60), name: 'PRG env' },
        /^\/dashboard\/environments\?done=created$/,
      ],
      ['/dashboard/scopes/new', { name: `prg:${suffix}`, description: 'PRG' }, /^\/dashboard\/scopes\?done=created$/],
      [
        '/dashboard/trusted-issuers/new',
        {
          issuer: `https://prg-${suffix}.example.com`,
          profile: 'id-jag',
          environment_id: await testFileEnvironment(),
          jwks: JSON.stringify({ keys: jwks!.keys.map((key) => ({ ...key, kid: `prg-${suffix}` })) }),
        },
        /^\/dashboard\/trusted-issuers\/[^/?]+\?done=created$/,
      ],
    ];
    for (const [path, fields, location] of creates) {
      const created = await dashboardPost(session, path, fields);
      expect([path, created.statusCode, created.body]).toEqual([path, 303, '']);
      expect(String(headerOf(created, 'Location'))).toMatch(location);
      expect((await followRedirect(session, created)).statusCode).toBe(200);
    }
  });
});

describe('behaviour DASH-14: a refused form comes back filled in, the problem beside its field, nothing written', () => {
  it('client create: the posted values back, the redirect URI problem beside its field, no client, no entry', async () => {
    const session = await newAdminSession();
    const environmentId = await testFileEnvironment();
    const refused = await dashboardPost(session, '/dashboard/clients/new', {
      type: 'public',
      name: 'Kept name',
      environment_id: environmentId,
      'scope:read': 'on',
      redirect_uris: 'http://evil.example/cb',
      refresh_grace_seconds: '17',
      dpop_bound_access_tokens: 'on',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<h1>Create a client</h1>');
    expect(refused.body).toContain('name="name" type="text" required maxlength="200" value="Kept name"');
    expect(refused.body).toContain('<option value="public" selected>');
    expect(refused.body).toMatch(new RegExp(`<option value="${environmentId}" selected>`));
    expect(refused.body).toContain('name="scope:read" checked');
    expect(refused.body).not.toContain('name="scope:write" checked');
    expect(refused.body).toContain('>http://evil.example/cb</textarea>');
    expect(refused.body).toContain('value="17"');
    expect(refused.body).toContain('name="dpop_bound_access_tokens" type="checkbox" checked');
    expect(fieldErrorOf(refused.body, 'redirect_uris')).toMatch(/http/);
    expect(refused.body).toContain('aria-describedby="redirect_uris-error"');
    expect(refused.body).toMatch(/class="error" role="alert">Nothing was saved: <a href="#redirect_uris-error">/);
    expect(await auditEntriesBy(session.user.id)).toEqual([]);
  });

  it('client create: an unknown scope typed is beside the scopes; a box with another value than "on" is refused too', async () => {
    const session = await newAdminSession();
    const base = { type: 'confidential', name: 'x', environment_id: await testFileEnvironment() };
    const unknown = await dashboardPost(session, '/dashboard/clients/new', { ...base, scopes: 'nope-scope' });
    expect(unknown.statusCode).toBe(400);
    expect(fieldErrorOf(unknown.body, 'scopes')).toMatch(/unknown scope &quot;nope-scope&quot;/);
    const oddBox = await dashboardPost(session, '/dashboard/clients/new', { ...base, 'scope:read': 'yes' });
    expect(oddBox.statusCode).toBe(400);
    expect(fieldErrorOf(oddBox.body, 'scopes')).toMatch(/must be &quot;on&quot;/);
    expect(await auditEntriesBy(session.user.id)).toEqual([]);
  });

  it('client edit: the posted name back (not the stored one) with its problem; the client unchanged', async () => {
    const session = await newAdminSession();
    const client = await createClient({ name: 'Stored name', scopes: ['read'], test: false });
    const tooLong = 'n'.repeat(201);
    const refused = await dashboardPost(session, `/dashboard/clients/${client.clientId}`, { name: tooLong, 'scope:write': 'on' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(`value="${tooLong}"`);
    expect(refused.body).toContain('name="scope:write" checked');
    expect(refused.body).not.toContain('name="scope:read" checked');
    expect(fieldErrorOf(refused.body, 'name')).toBeDefined();
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
  });

  it('API key: an unknown user stays in the field with the problem beside it; no key', async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const refused = await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys`, {
      user: 'nobody-here@example.test',
      name: 'Kept key name',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="nobody-here@example.test"');
    expect(refused.body).toContain('value="Kept key name"');
    expect(fieldErrorOf(refused.body, 'user')).toMatch(/no user with that email or id/);
    expect(await auditEntriesBy(session.user.id)).toEqual([]);
  });

  it('user create: a password never comes back; a taken email (409) is beside the email', async () => {
    const session = await newAdminSession();
    const short = await dashboardPost(session, '/dashboard/users/new', { name: 'Kept user', email: 'kept@example.test', password: 'shrt' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('value="Kept user"');
    expect(short.body).toContain('value="kept@example.test"');
    expect(short.body).not.toContain('shrt');
    expect(fieldErrorOf(short.body, 'password')).toBeDefined();
    const taken = await dashboardPost(session, '/dashboard/users/new', {
      name: 'Twin',
      email: session.user.email!,
      password: 'long enough password',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).not.toContain('long enough password');
    expect(fieldErrorOf(taken.body, 'email')).toMatch(/already exists/);
    expect(await auditEntriesBy(session.user.id)).toEqual([]);
  });

  it('environment and scope create: a taken id or name is beside it, the other fields kept', async () => {
    const session = await newAdminSession();
    const taken = await dashboardPost(session, '/dashboard/environments/new', { id: await testFileEnvironment(), name: 'Kept env' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('value="Kept env"');
    expect(fieldErrorOf(taken.body, 'id')).toMatch(/already exists/);
    const scope = await dashboardPost(session, '/dashboard/scopes/new', {
      name: 'read',
      description: 'Kept description',
      discoverable: 'on',
    });
    expect(scope.statusCode).toBe(409);
    expect(scope.body).toContain('value="Kept description"');
    expect(scope.body).toMatch(/name="discoverable" type="checkbox" checked/);
    expect(fieldErrorOf(scope.body, 'name')).toMatch(/already exists/);
    expect(await auditEntriesBy(session.user.id)).toEqual([]);
  });

  it('a refusal about no field of a form that has fields is at its top; one that is not about input keeps the error page', async () => {
    const session = await newAdminSession();
    const user = await createUser({ test: false });
    const self = await dashboardPost(session, `/dashboard/users/${session.user.id}`, { name: 'Me' });
    expect(self.statusCode).toBe(409);
    expect(fieldErrorOf(self.body, 'admin')).toMatch(/cannot remove your own administrator role/);
    const missing = await dashboardPost(session, '/dashboard/clients/tgc_nope', { name: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<h1>This cannot be done</h1>');
    expect((await dashboardGet(session, `/dashboard/users/${user.id}`)).statusCode).toBe(200);
  });
});

describe("behaviour DASH-15: the client form's defaults", () => {
  it('one environment is selected and it is not the self-registration one; the catalog scopes are checkboxes with descriptions', async () => {
    const session = await newAdminSession();
    await ensureScopes('read');
    const form = await dashboardGet(session, '/dashboard/clients/new');
    const selected = [...form.body.matchAll(/<option value="([^"]+)" selected>/g)].map((m) => m[1]);
    expect(selected).toContain('confidential');
    const environments = selected.filter((value) => value !== 'confidential');
    expect(environments).toHaveLength(1);
    expect(environments[0]).not.toBe('env_dcrtest');
    expect(form.body).not.toContain('id="scopes" name="scopes" type="text"');
    expect(form.body).toMatch(/<input type="checkbox" name="scope:read"> <code>read<\/code>/);
  });

  it('the edit form ticks the scopes the client holds; unticking one removes it', async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read', 'write'], test: false });
    const page = await dashboardGet(session, `/dashboard/clients/${client.clientId}`);
    expect(page.body).toContain('name="scope:read" checked');
    expect(page.body).toContain('name="scope:write" checked');
    const saved = await dashboardPost(session, `/dashboard/clients/${client.clientId}`, { name: client.name, 'scope:write': 'on' });
    expect(saved.statusCode).toBe(303);
    expect((await getClientRepository().get(client.clientId))?.scopes).toEqual(['write']);
  });
});

describe('behaviour DASH-16: a deletion says what depends on the thing first', () => {
  const deleteButton = (body: string, action: string) => body.includes(`action="${action}"`);

  it('an environment with a client: the page names it and offers no button; the POST is still refused (409)', async () => {
    const session = await newAdminSession();
    const environmentId = await createEnvironment('Busy');
    const client = await createClient({ environmentId, test: false });
    const page = await dashboardGet(session, `/dashboard/environments/${environmentId}/delete`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="dependent-clients">1 client is in it/);
    expect(page.body).toContain(`href="/dashboard/clients/${client.clientId}"`);
    expect(deleteButton(page.body, `/dashboard/environments/${environmentId}/delete`)).toBe(false);
    expect((await dashboardPost(session, `/dashboard/environments/${environmentId}/delete`, {})).statusCode).toBe(409);
  });

  it('the self-registration environment and one a trusted issuer issues for: named, no button', async () => {
    const session = await newAdminSession();
    const dcr = await dashboardGet(session, '/dashboard/environments/env_dcrtest/delete');
    if (dcr.statusCode === 200) {
      expect(dcr.body).toContain('id="dependent-self-registration"');
      expect(deleteButton(dcr.body, '/dashboard/environments/env_dcrtest/delete')).toBe(false);
    }
    const environmentId = await createEnvironment('Trusted');
    await createTrustedIssuer({ environmentId });
    const trusted = await dashboardGet(session, `/dashboard/environments/${environmentId}/delete`);
    expect(trusted.body).toContain('id="dependent-trusted-issuers"');
    expect(deleteButton(trusted.body, `/dashboard/environments/${environmentId}/delete`)).toBe(false);
  });

  it('an environment nothing depends on: the confirmation with its button (a GET deletes nothing), then the POST deletes it', async () => {
    const session = await newAdminSession();
    const environmentId = await createEnvironment('Idle');
    const page = await dashboardGet(session, `/dashboard/environments/${environmentId}/delete`);
    expect(page.body).toMatch(/No client or trusted issuer depends on it/);
    expect(deleteButton(page.body, `/dashboard/environments/${environmentId}/delete`)).toBe(true);
    expect(await getEnvironments().get(environmentId)).toBeDefined();
    expect((await dashboardPost(session, `/dashboard/environments/${environmentId}/delete`, {})).statusCode).toBe(303);
    expect(await getEnvironments().get(environmentId)).toBeUndefined();
  });

  it('a scope held by a client names the client and offers no button; a free one offers it', async () => {
    const session = await newAdminSession();
    const held = `forms:${uniqueSuffix()}`;
    await ensureScopes(held);
    const holder = await createClient({ scopes: [held], test: false });
    const page = await dashboardGet(session, `/dashboard/scopes/delete?name=${encodeURIComponent(held)}`);
    expect(page.body).toMatch(/id="dependent-clients">1 client holds it/);
    expect(page.body).toContain(`href="/dashboard/clients/${holder.clientId}"`);
    expect(deleteButton(page.body, '/dashboard/scopes/remove')).toBe(false);
    const free = `forms:${uniqueSuffix()}`;
    await ensureScopes(free);
    expect(
      deleteButton(
        (await dashboardGet(session, `/dashboard/scopes/delete?name=${encodeURIComponent(free)}`)).body,
        '/dashboard/scopes/remove',
      ),
    ).toBe(true);
  });

  it("a client's page counts its active API keys; a user's names their keys and passkeys", async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    const none = await dashboardGet(session, `/dashboard/clients/${client.clientId}/delete`);
    expect(none.body).toMatch(/id="dependent-keys">it has no active API key</);
    await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys`, { user: user.id });
    const one = await dashboardGet(session, `/dashboard/clients/${client.clientId}/delete`);
    expect(one.body).toMatch(/id="dependent-keys">1 active API key</);
    const userPage = await dashboardGet(session, `/dashboard/users/${user.id}/delete`);
    expect(userPage.body).toMatch(/id="dependent-credentials">every API key acting as them and no passkey/);
  });

  it('an environment with more clients than the page names: "more than 10", ten named, bounded reads; the POST is still refused (409)', async () => {
    const session = await newAdminSession();
    const environmentId = await createEnvironment('Crowded');
    await Promise.all(Array.from({ length: namedDependents + 2 }, () => createClient({ environmentId, test: false })));
    const faults = DynamoFaults.install();
    let page: Awaited<ReturnType<typeof dashboardGet>>;
    try {
      page = await dashboardGet(session, `/dashboard/environments/${environmentId}/delete`);
    } finally {
      faults.uninstall();
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="dependent-clients">More than 10 clients are in it: delete them first\./);
    expect(page.body.match(/<li><a href="\/dashboard\/clients\//g)).toHaveLength(namedDependents);
    expect(page.body).toContain('<li>and more</li>');
    const listReads = faults.attempts.filter((attempt) => attempt.operation === 'Query' && attempt.input.IndexName === 'gsi1');
    expect(listReads.length).toBeLessThanOrEqual(maxReadsPerPage);
    expect(deleteButton(page.body, `/dashboard/environments/${environmentId}/delete`)).toBe(false);
    expect((await dashboardPost(session, `/dashboard/environments/${environmentId}/delete`, {})).statusCode).toBe(409);
  });

  it('the environment read stops at its bound of reads and says it may have missed clients (more), rather than reading on', async () => {
    const environmentId = await createEnvironment('Unread');
    await createClient({ test: false });
    const faults = DynamoFaults.install();
    let holders: Awaited<ReturnType<ReturnType<typeof getClientRepository>['inEnvironment']>>;
    try {
      holders = await getClientRepository().inEnvironment(environmentId, namedDependents, { reads: 2, perRead: 1 });
    } finally {
      faults.uninstall();
    }
    expect(holders).toEqual({ count: 0, sample: [], more: true });
    expect(faults.attempts.filter((attempt) => attempt.operation === 'Query')).toHaveLength(2);
    expect(await getClientRepository().inEnvironment(environmentId, namedDependents)).toEqual({ count: 0, sample: [] });
  });

  it('a scope held by more clients than the page names: "more than 10", ten named, bounded reads (DASH-16); the POST is still refused (409)', async () => {
    const session = await newAdminSession();
    const held = `crowded:${uniqueSuffix()}`;
    await ensureScopes(held);
    await Promise.all(Array.from({ length: namedDependents + 2 }, () => createClient({ scopes: [held], test: false })));
    const faults = DynamoFaults.install();
    let page: Awaited<ReturnType<typeof dashboardGet>>;
    try {
      page = await dashboardGet(session, `/dashboard/scopes/delete?name=${encodeURIComponent(held)}`);
    } finally {
      faults.uninstall();
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="dependent-clients">More than 10 clients hold it:/);
    expect(page.body.match(/<li><a href="\/dashboard\/clients\//g)).toHaveLength(namedDependents);
    expect(page.body).toContain('<li>and more</li>');
    const listReads = faults.attempts.filter((attempt) => attempt.operation === 'Query' && attempt.input.IndexName === 'gsi1');
    expect(listReads.length).toBeLessThanOrEqual(maxReadsPerPage);
    expect(deleteButton(page.body, '/dashboard/scopes/remove')).toBe(false);
    const refused = await dashboardPost(session, '/dashboard/scopes/remove', { name: held });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toMatch(/is granted to 12 clients/);
    expect((await dashboardGet(session, `/dashboard/scopes/delete?name=${encodeURIComponent(held)}`)).statusCode).toBe(200);
  });

  it("the scope's holders read stops at its bound of reads and says it may have missed some (more) (DASH-16); the full read finds none", async () => {
    const scope = `unread:${uniqueSuffix()}`;
    await createClient({ test: false });
    const faults = DynamoFaults.install();
    let holders: Awaited<ReturnType<ReturnType<typeof getClientRepository>['firstHoldersOfScope']>>;
    try {
      holders = await getClientRepository().firstHoldersOfScope(scope, namedDependents, { reads: 2, perRead: 1 });
    } finally {
      faults.uninstall();
    }
    expect(holders).toEqual({ count: 0, sample: [], more: true });
    expect(faults.attempts.filter((attempt) => attempt.operation === 'Query')).toHaveLength(2);
    expect(await getClientRepository().holdersOfScope(scope, namedDependents)).toEqual({ count: 0, sample: [] });
  });

  it('a client\'s page counts active API keys only up to one past ten: "more than 10"; revoked keys are not counted', async () => {
    const session = await newAdminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    for (let i = 0; i <= namedDependents; i++) {
      expect((await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys`, { user: user.id })).statusCode).toBe(303);
    }
    const many = await dashboardGet(session, `/dashboard/clients/${client.clientId}/delete`);
    expect(many.body).toMatch(/id="dependent-keys">more than 10 active API keys<\/strong> will stop working/);
    const first = (await getApiKeyStore().listByClient(client.clientId, 1)).entries[0]?.item;
    expect((await dashboardPost(session, `/dashboard/clients/${client.clientId}/keys/${first!.keyId}/revoke`, {})).statusCode).toBe(303);
    const ten = await dashboardGet(session, `/dashboard/clients/${client.clientId}/delete`);
    expect(ten.body).toMatch(/id="dependent-keys">10 active API keys</);
  });
});

describe('behaviour DASH-17: "Grant an environment" never offers an empty select', () => {
  it('a user holding every environment is told so instead of an empty select', async () => {
    const session = await newAdminSession();
    const user = await createUser({ test: false });
    const before = await dashboardGet(session, `/dashboard/users/${user.id}`);
    expect(before.body).toContain('name="environment_id"');
    let cursor: string | undefined;
    do {
      const page = await getEnvironments().list(100, cursor);
      for (const environment of page.items) await grantEnvironment(user.id, environment.id, new Date().toISOString());
      cursor = page.next;
    } while (cursor);
    const after = await dashboardGet(session, `/dashboard/users/${user.id}`);
    expect(after.body).toMatch(/id="all-granted">(Every environment is already granted|The first 100 environments are all granted)/);
    expect(after.body).not.toContain('<select id="environment_id"');
  });
});
