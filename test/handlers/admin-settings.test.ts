/**
 * Site settings (behaviour SITE-1..SITE-3): GET/PATCH /api/admin/settings, their
 * validation, the audit entry, and the effect of the MFA policy on the next sign-in. On tables of
 * this file's own (test/support/own-tables.ts): the settings item is one per deployment.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as getSettings } from '../../lambdas/handlers/admin/settings-get';
import { handler as updateSettings } from '../../lambdas/handlers/admin/settings-update';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, ensureScopes, auditPartition } from '../support/admin-calls';
import {
  adminClientToken,
  adminUserToken,
  createClient,
  createUser,
  createUserWithPassword,
  issueAccessToken,
  type TestUser,
} from '../support/fixtures';
import { useOutbox } from '../support/api-keys';
import { browserHeaders, form } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { useOwnTables } from '../support/own-tables';

useOwnTables();
useOutbox();

let token: string;
let adminClientId: string;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  const admin = await adminClientToken();
  token = admin.token;
  adminClientId = admin.client.clientId;
});

const patch = (body: unknown, as = token) => callAdmin(updateSettings, { token: as, method: 'PATCH', path: '/api/admin/settings', body });
const read = async () => jsonBody(await callAdmin(getSettings, { token, path: '/api/admin/settings' }));

const siteAudit = () => auditPartition(partitions.siteAudit);

async function storedSettings() {
  const { db, tables } = getStorage();
  return (await db.send(new GetCommand({ TableName: tables.main, Key: keys.siteSettings(), ConsistentRead: true }))).Item;
}

const signIn = (who: TestUser) =>
  signInHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/auth/signin',
      headers: browserHeaders(),
      body: form({ email: who.user.email!, password: who.password }),
    }),
    lambdaContext,
  );
/** What the next sign-in asks for after the password: the mailed code, or nothing (a session). */
async function nextSignInNeeds(who: TestUser): Promise<'code' | 'session'> {
  const result = await signIn(who);
  if (result.body.includes('action="/api/auth/otp"')) return 'code';
  expect(headerOf(result, 'set-cookie')).toContain('__Host-');
  return 'session';
}

describe('settings (behaviour SITE-1)', () => {
  it('before any change: the default title and MFA_POLICY (admins), from the environment', async () => {
    expect(await read()).toEqual({
      title: 'Tollgate',
      mfa_policy: 'admins',
      mfa_policy_source: 'environment',
      logo: null,
      version: 0,
      updated_at: null,
      updated_by: null,
    });
  });

  it('PATCH changes the title, answers the new settings, and writes site.settings.update with the admin as actor', async () => {
    const before = (await siteAudit()).length;
    const result = await patch({ title: '  Example Corp  ' });
    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body).toMatchObject({ title: 'Example Corp', updated_by: { type: 'admin-client', client_id: adminClientId } });
    expect(await read()).toMatchObject({ title: 'Example Corp', version: body.version });
    const audit = await siteAudit();
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)).toMatchObject({
      type: 'site.settings.update',
      actor: { kind: 'admin-client', clientId: adminClientId },
      changes: { title: { to: 'Example Corp' } },
    });
  });

  it('an admin user is recorded as the actor', async () => {
    const { token: userToken, user } = await adminUserToken();
    const result = await patch({ title: 'By a person' }, userToken);
    expect(result.statusCode).toBe(200);
    expect((await siteAudit()).at(-1)).toMatchObject({ actor: { kind: 'admin-user', userId: user.id } });
  });

  it('a PATCH that changes nothing writes nothing and audits nothing', async () => {
    await patch({ title: 'Same' });
    const [audit, version] = [(await siteAudit()).length, (await read()).version];
    expect((await patch({ title: 'Same' })).statusCode).toBe(200);
    expect((await siteAudit()).length).toBe(audit);
    expect((await read()).version).toBe(version);
  });

  it.each([
    ['an empty title', { title: '   ' }, 'title: must have at least 1 character'],
    ['a title over 80 characters', { title: 'x'.repeat(81) }, 'title: must have at most 80 characters'],
    ['a title with a line break', { title: 'a\nb' }, 'title: must not contain control characters or line breaks'],
    ['a title that is not a string', { title: 7 }, 'title: expected string'],
    ['an unknown MFA policy', { mfa_policy: 'sometimes' }, 'mfa_policy: must be one of "off", "admins", "everyone"'],
    ['an unknown field', { logo: 'x' }, ''],
    ['nothing to change', {}, 'Nothing to change'],
  ])('answers %s with a readable 400 and changes nothing', async (_what, body, message) => {
    const before = await storedSettings();
    const audit = (await siteAudit()).length;
    const result = await patch(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining(message) });
    expect(await storedSettings()).toEqual(before);
    expect((await siteAudit()).length).toBe(audit);
  });

  it('a body that is not JSON is a 400, a form body a 415', async () => {
    expect((await patch('{"title":')).statusCode).toBe(400);
    const formBody = await updateSettings(
      apiGatewayEvent({
        method: 'PATCH',
        path: '/api/admin/settings',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'title=x',
      }),
      lambdaContext,
    );
    expect(formBody.statusCode).toBe(415);
  });

  it('refuses callers that are not admins: no token 401, a plain token 403, and nothing changes', async () => {
    const before = await storedSettings();
    expect((await callAdmin(updateSettings, { method: 'PATCH', body: { title: 'x' } })).statusCode).toBe(401);
    const client = await createClient({ scopes: ['openid'] });
    const user = await createUser();
    const plain = await issueAccessToken({ clientId: client.clientId, sub: user.id, scopes: ['openid'] });
    expect((await patch({ title: 'x' }, plain.token)).statusCode).toBe(403);
    expect((await callAdmin(getSettings, { token: plain.token })).statusCode).toBe(403);
    expect(await storedSettings()).toEqual(before);
  });

  it('two admins saving at once: both changes are kept, each audited once', async () => {
    const audit = (await siteAudit()).length;
    const [a, b] = await Promise.all([patch({ title: 'Concurrent title' }), patch({ mfa_policy: 'admins' })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await read()).toMatchObject({ title: 'Concurrent title', mfa_policy: 'admins', mfa_policy_source: 'setting' });
    expect((await siteAudit()).length).toBe(audit + 2);
  });
});

describe('the MFA policy setting overrides MFA_POLICY from the next sign-in (behaviour SITE-2, MFA-1)', () => {
  it('everyone, then off, then null (back to MFA_POLICY=admins): each applies to the very next sign-in', async () => {
    const plain = await createUserWithPassword();
    const admin = await createUserWithPassword({ admin: true });

    expect((await patch({ mfa_policy: 'everyone' })).statusCode).toBe(200);
    expect(await nextSignInNeeds(plain)).toBe('code');

    expect(jsonBody(await patch({ mfa_policy: 'off' }))).toMatchObject({ mfa_policy: 'off', mfa_policy_source: 'setting' });
    expect(await nextSignInNeeds(admin)).toBe('session');

    expect(jsonBody(await patch({ mfa_policy: null }))).toMatchObject({ mfa_policy: 'admins', mfa_policy_source: 'environment' });
    expect(await nextSignInNeeds(admin)).toBe('code');
    expect(await nextSignInNeeds(plain)).toBe('session');
    expect((await siteAudit()).at(-1)).toMatchObject({ changes: { mfa_policy: { from: 'off', to: null } } });
  });
});
