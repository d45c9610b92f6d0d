/**
 * The dashboard's handler: who may use it (behaviour DASH-1: an admin session with a
 * second factor; others 303 to sign-in or 403), its headers (DASH-2: no-store, not framable),
 * the POST checks (DASH-3: same origin, session-bound CSRF token), bad input on every form
 * (DASH-4: a readable page, never a 500, nothing written, no audit entry), and the changes
 * audited with the admin as actor (DASH-5, LOG-9).
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { csrfTokenOf } from '../../lambdas/presentation/dashboard/guard';
import type { User } from '../../lambdas/core/model';
import { handler } from '../support/dashboard-handler';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { getClientRepository, getEnvironments, getSessions, getUsers } from '../../lambdas/wiring/repositories';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { createClient, createEnvironment, createTrustedIssuer, createUser, testFileEnvironment, uniqueSuffix } from '../support/fixtures';
import { getTrustedIssuerStore } from '../../lambdas/wiring/trusted-issuers';
import { ensureScopes } from '../support/admin-calls';
import { listScopes } from '../../lambdas/core/admin/scopes';
import { getAdmin } from '../../lambdas/wiring/admin';

const origin = 'https://auth.example.test';

interface Session {
  readonly user: User;
  readonly cookie: string;
  readonly csrf: string;
}

async function sessionOf(user: User, amr: string[] = ['pwd', 'otp', 'mfa']): Promise<Session> {
  const id = randomBytes(32).toString('base64url');
  const authTime = Math.floor(Date.now() / 1000);
  await getSessions().createSession(id, { userId: user.id, authTime, amr, expiresAtEpoch: authTime + 3600 }, new Date().toISOString());
  return { user, cookie: `__Host-session=${id}`, csrf: csrfTokenOf(id) };
}

const adminSession = async () => sessionOf(await createUser({ admin: true, test: false, name: 'Dashboard admin' }));

function request(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string, query?: Record<string, string>) {
  const sub = path.replace(/^\/dashboard\/?/, '');
  return handler(
    apiGatewayEvent({
      method,
      path,
      resource: sub ? '/dashboard/{proxy+}' : '/dashboard',
      headers: { Accept: 'text/html', ...headers },
      ...(sub ? { pathParameters: { proxy: sub } } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(query ? { query } : {}),
    }),
    lambdaContext,
  );
}

const get = (session: Session | undefined, path: string, query?: Record<string, string>) =>
  request('GET', path, session ? { Cookie: session.cookie } : {}, undefined, query);

function post(
  session: Session,
  path: string,
  fields: Record<string, string>,
  options: { csrf?: string | null; headers?: Record<string, string> } = {},
) {
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  const body = new URLSearchParams({ ...(csrf !== null ? { csrf } : {}), ...fields }).toString();
  const headers = {
    Cookie: session.cookie,
    'Content-Type': 'application/x-www-form-urlencoded',
    'Sec-Fetch-Site': 'same-origin',
    Origin: origin,
    ...options.headers,
  };
  // An empty value stands for a header the browser did not send.
  return request('POST', path, Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')), body);
}

const header = (response: APIGatewayProxyResult, name: string) =>
  Object.entries(response.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** Behaviour DASH-13: a create answers 303; the browser's GET of its Location. */
function follow(session: Session, response: APIGatewayProxyResult) {
  expect(response.statusCode).toBe(303);
  const location = new URL(String(header(response, 'Location')), origin);
  return get(session, location.pathname, Object.fromEntries(location.searchParams));
}

/** The client id in a create's Location (its page, or the page its secret is shown on). */
const createdClientId = (response: APIGatewayProxyResult) =>
  decodeURIComponent(/^\/dashboard\/clients\/([^/?]+)/.exec(String(header(response, 'Location')))![1]!);

async function auditBy(adminId: string) {
  const page = await getAuditLog().page({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
    limit: 100,
  });
  return page.items.filter((entry) => entry.actor.kind === 'admin-user' && entry.actor.userId === adminId);
}

beforeAll(async () => {
  await ensureScopes('read', 'write', 'openid');
});

/** A fresh catalog scope, granted to a new client when `holder` is set. */
async function newScope(holder = false): Promise<string> {
  const name = `dash:${uniqueSuffix()}`;
  await ensureScopes(name);
  if (holder) await createClient({ scopes: [name] });
  return name;
}

const scopeNames = async () => (await listScopes(getAdmin())).map((s) => s.name);

describe('behaviour DASH-1: only an admin session with a second factor', () => {
  it('sends a browser without a session to sign-in, returning to the page it asked for', async () => {
    const response = await get(undefined, '/dashboard/clients', { type: 'dynamic' });
    expect(response.statusCode).toBe(303);
    expect(header(response, 'Location')).toBe(`/api/auth/signin?return_to=${encodeURIComponent('/dashboard/clients?type=dynamic')}`);
  });

  it('refuses a plain user with a 403 page', async () => {
    const session = await sessionOf(await createUser());
    const response = await get(session, '/dashboard');
    expect(response.statusCode).toBe(403);
    expect(header(response, 'Content-Type')).toMatch(/^text\/html/);
    expect(response.body).toContain('for administrators only');
  });

  it('asks an admin whose sign-in had no second factor for the mailed code (MFA_POLICY admins; ASVS 6.3.3; behaviour MFA-10)', async () => {
    const session = await sessionOf(await createUser({ admin: true }), ['pwd']);
    const response = await get(session, '/dashboard/users');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('second factor');
    expect(response.body).toContain('action="/api/auth/step-up"');
    expect(response.body).toContain('name="return_to" value="/dashboard/users"');
    // A POST without the factor is refused and comes back to the dashboard, never to the action.
    const posted = await post(session, '/dashboard/environments/new', { name: 'never' });
    expect(posted.statusCode).toBe(403);
    expect(posted.body).toContain('name="return_to" value="/dashboard"');
  });
});

describe('behaviour DASH-2: every page is no-store and cannot be framed', () => {
  it.each(['/dashboard', '/dashboard/clients', '/dashboard/users', '/dashboard/environments', '/dashboard/scopes', '/dashboard/audit'])(
    '%s',
    async (path) => {
      const session = await adminSession();
      const response = await get(session, path);
      expect(response.statusCode).toBe(200);
      expect(header(response, 'Cache-Control')).toBe('no-store');
      expect(header(response, 'X-Frame-Options')).toBe('DENY');
      expect(header(response, 'Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(header(response, 'Content-Security-Policy')).not.toContain('script-src');
      expect(response.body).not.toContain('$argon2id$');
    },
  );

  it('answers an unknown dashboard path with a 404 page', async () => {
    const response = await get(await adminSession(), '/dashboard/nothing-here');
    expect(response.statusCode).toBe(404);
  });
});

describe('behaviour DASH-3: every POST is same-origin and carries the session-bound CSRF token', () => {
  const environmentNamed = async (name: string) => (await getEnvironments().list(100)).items.find((e) => e.name === name);

  it.each([
    ['no csrf field', { csrf: null }],
    ['the csrf token of another session', { csrf: csrfTokenOf(randomBytes(32).toString('base64url')) }],
    ['a cross-site post', { headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' } }],
    ['a post from a null origin (an older browser without Sec-Fetch-Site)', { headers: { 'Sec-Fetch-Site': '', Origin: 'null' } }],
  ] as [string, { csrf?: string | null; headers?: Record<string, string> }][])(
    'refuses %s with 403 and writes nothing',
    async (_what, options) => {
      const session = await adminSession();
      const name = `Refused ${uniqueSuffix()}`;
      const response = await post(session, '/dashboard/environments/new', { name }, options);
      expect(response.statusCode).toBe(403);
      expect(await environmentNamed(name)).toBeUndefined();
      expect(await auditBy(session.user.id)).toEqual([]);
    },
  );
});

/** Behaviour TRUST-3..TRUST-8 through the dashboard's forms: each refused as a page, nothing written. */
function trustedIssuerRefusals(): [string, () => string, () => Promise<Record<string, string>>, number][] {
  let existing: ReturnType<typeof createTrustedIssuer> | undefined;
  const trusted = async () => (await (existing ??= createTrustedIssuer())).trustedIssuer;
  const jwks = async () => JSON.stringify((await trusted()).jwks);
  const create = async (fields: Record<string, string>) => ({
    issuer: `https://idp-${uniqueSuffix()}.example.com`,
    profile: 'id-jag',
    environment_id: await testFileEnvironment(),
    jwks: await jwks(),
    ...fields,
  });
  const path = '/dashboard/trusted-issuers/new';
  return [
    ['trusted issuer create: http issuer', () => path, () => create({ issuer: 'http://idp.example.com' }), 400],
    ['trusted issuer create: both jwks and jwks_uri', () => path, () => create({ jwks_uri: 'https://idp.example.com/jwks' }), 400],
    ['trusted issuer create: neither jwks nor jwks_uri', () => path, () => create({ jwks: '' }), 400],
    ['trusted issuer create: jwks not JSON', () => path, () => create({ jwks: '{keys' }), 400],
    [
      'trusted issuer create: a private key',
      () => path,
      () => create({ jwks: JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 's' }] }) }),
      400,
    ],
    ['trusted issuer create: unknown environment', () => path, () => create({ environment_id: 'no-such-env' }), 400],
    [
      'trusted issuer create: unknown scope in a rule',
      () => path,
      () =>
        create({
          profile: 'workload',
          rules: JSON.stringify([{ subject: 's', scopes: ['nope-scope'], resources: ['https://r.example'] }]),
        }),
      400,
    ],
    ['trusted issuer create: already trusted', () => path, async () => create({ issuer: (await trusted()).issuer }), 409],
    ['trusted issuer edit: unknown', () => '/dashboard/trusted-issuers/tri_nope', async () => ({ description: 'x' }), 404],
    [
      'trusted issuer edit: both kinds of keys',
      () => `/dashboard/trusted-issuers/${trustedTarget}`,
      async () => {
        trustedTarget = (await trusted()).trustedIssuerId;
        return { jwks: await jwks(), jwks_uri: 'https://idp.example.com/jwks' };
      },
      400,
    ],
    ['trusted issuer delete: unknown', () => '/dashboard/trusted-issuers/tri_nope/delete', async () => ({}), 404],
    [
      'environment delete: an issuer trusted in it (TRUST-8)',
      () => `/dashboard/environments/${trustedTarget}/delete`,
      async () => {
        trustedTarget = await createEnvironment();
        await createTrustedIssuer({ environmentId: trustedTarget });
        return {};
      },
      409,
    ],
  ];
}
/** The id a refusal's path names, known only once its fields have made it (the fields are made first). */
let trustedTarget = '';

describe('behaviour DASH-4: bad input on every dashboard POST is a readable page, never a 500, nothing written', () => {
  let session: Session;
  let clientId: string;
  let rotatingClientId: string;
  let userId: string;
  let keyLessUserId: string;
  let envId: string;
  beforeAll(async () => {
    session = await adminSession();
    clientId = (await createClient({ type: 'public', grantTypes: ['authorization_code'], redirectUris: ['https://app.example.test/cb'] }))
      .clientId;
    rotatingClientId = (await createClient({ kind: 'app' })).clientId;
    userId = (await createUser()).id;
    keyLessUserId = (await createUser({ email: undefined as unknown as string })).id;
    envId = await testFileEnvironment();
  });
  const env = () => testFileEnvironment();
  const cases: [string, () => string, () => Promise<Record<string, string>>, number][] = [
    ['client create: no type', () => '/dashboard/clients/new', async () => ({ name: 'x', environment_id: await env() }), 400],
    [
      'client create: unknown environment',
      () => '/dashboard/clients/new',
      async () => ({ type: 'confidential', name: 'x', environment_id: 'no-such-env' }),
      400,
    ],
    [
      'client create: unknown scope',
      () => '/dashboard/clients/new',
      async () => ({ type: 'confidential', name: 'x', environment_id: await env(), scopes: 'nope-scope' }),
      400,
    ],
    [
      'client create: redirect URI over http',
      () => '/dashboard/clients/new',
      async () => ({ type: 'public', name: 'x', environment_id: await env(), redirect_uris: 'http://evil.example/cb' }),
      400,
    ],
    [
      'client create: refresh grace window over 300 (REFRESH-7)',
      () => '/dashboard/clients/new',
      async () => ({
        type: 'public',
        name: 'x',
        environment_id: await env(),
        redirect_uris: 'https://app.example.test/cb',
        refresh_grace_seconds: '301',
      }),
      400,
    ],
    [
      'client create: refresh grace window for a client_credentials client (REFRESH-7)',
      () => '/dashboard/clients/new',
      async () => ({ type: 'confidential', name: 'x', environment_id: await env(), refresh_grace_seconds: '30' }),
      400,
    ],
    ['client edit: name too long', () => `/dashboard/clients/${clientId}`, async () => ({ name: 'n'.repeat(201), scopes: '' }), 400],
    [
      'client edit: redirect URI with a fragment',
      () => `/dashboard/clients/${clientId}`,
      async () => ({ name: 'ok', scopes: '', redirect_uris: 'https://app.example.test/cb#x' }),
      400,
    ],
    [
      'client edit: no redirect URI left',
      () => `/dashboard/clients/${clientId}`,
      async () => ({ name: 'ok', scopes: '', redirect_uris: '' }),
      400,
    ],
    ['client edit: unknown client', () => '/dashboard/clients/nope', async () => ({ name: 'ok', scopes: '' }), 404],
    ...(['301', '-1', '2.5', 'soon'].map((wrong) => [
      `client edit: refresh grace window ${wrong} (REFRESH-7)`,
      () => `/dashboard/clients/${rotatingClientId}`,
      async () => ({ name: 'ok', scopes: '', redirect_uris: 'https://app.example.test/callback', refresh_grace_seconds: wrong }),
      400,
    ]) as typeof cases),
    // Behaviour ADMIN-19: keys instead of a secret.
    [
      'client create: jwks that is not JSON',
      () => '/dashboard/clients/new',
      async () => ({ type: 'confidential', name: 'x', environment_id: await env(), jwks: '{keys' }),
      400,
    ],
    [
      'client create: a private key in jwks',
      () => '/dashboard/clients/new',
      async () => ({
        type: 'confidential',
        name: 'x',
        environment_id: await env(),
        jwks: JSON.stringify({ keys: [{ kty: 'EC', d: 'x' }] }),
      }),
      400,
    ],
    [
      'client create: both jwks and a jwks URL',
      () => '/dashboard/clients/new',
      async () => ({
        type: 'confidential',
        name: 'x',
        environment_id: await env(),
        jwks: JSON.stringify({ keys: [{ kty: 'EC' }] }),
        jwks_uri: 'https://k.example.test/jwks',
      }),
      400,
    ],
    ['client delete: unknown client', () => '/dashboard/clients/nope/delete', async () => ({}), 404],
    ['key create: no user', () => `/dashboard/clients/${clientId}/keys`, async () => ({ user: '' }), 400],
    ['key create: unknown user', () => `/dashboard/clients/${clientId}/keys`, async () => ({ user: 'nobody@example.test' }), 400],
    ['key create: bad expiry', () => `/dashboard/clients/${clientId}/keys`, async () => ({ user: userId, expires_at: 'tomorrow' }), 400],
    ['key revoke: unknown key', () => `/dashboard/clients/${clientId}/keys/0123456789abcdef/revoke`, async () => ({}), 404],
    ['user create: no name', () => '/dashboard/users/new', async () => ({ email: `a-${uniqueSuffix()}@example.test` }), 400],
    ['user create: not an email', () => '/dashboard/users/new', async () => ({ name: 'x', email: 'not-an-email' }), 400],
    ['user create: short password', () => '/dashboard/users/new', async () => ({ name: 'x', password: 'short' }), 400],
    ['user create: email taken', () => '/dashboard/users/new', async () => ({ name: 'x', email: session.user.email! }), 409],
    ['user edit: not an email', () => `/dashboard/users/${userId}`, async () => ({ name: 'x', email: 'nope' }), 400],
    ['user edit: unknown user', () => '/dashboard/users/usr_nope', async () => ({ name: 'x' }), 404],
    ['user delete: unknown user', () => '/dashboard/users/usr_nope/delete', async () => ({}), 404],
    ['user delete: the admin themself', () => `/dashboard/users/${session.user.id}/delete`, async () => ({}), 409],
    ['user edit: dropping your own admin role', () => `/dashboard/users/${session.user.id}`, async () => ({ name: 'Me' }), 409],
    ['grant: malformed environment id', () => `/dashboard/users/${userId}/environments`, async () => ({ environment_id: 'bad id!' }), 400],
    ['grant: unknown environment', () => `/dashboard/users/${userId}/environments`, async () => ({ environment_id: 'no-such-env' }), 404],
    ['grant removal: unknown environment', () => `/dashboard/users/${userId}/environments/no-such-env/revoke`, async () => ({}), 404],
    ['passkey removal: no credential id', () => `/dashboard/users/${userId}/passkeys/remove`, async () => ({}), 400],
    ['passkey removal: unknown passkey', () => `/dashboard/users/${userId}/passkeys/remove`, async () => ({ credential_id: 'AAAA' }), 404],
    ['sign out everywhere: unknown user', () => '/dashboard/users/usr_nope/sign-out-everywhere', async () => ({}), 404],
    ['reset link: unknown user', () => '/dashboard/users/usr_nope/password-reset', async () => ({}), 404],
    ['reset link: user without an email', () => `/dashboard/users/${keyLessUserId}/password-reset`, async () => ({}), 400],
    ['environment create: no name', () => '/dashboard/environments/new', async () => ({ id: `e${uniqueSuffix()}` }), 400],
    ['environment create: malformed id', () => '/dashboard/environments/new', async () => ({ id: 'a b', name: 'x' }), 400],
    ['environment create: id taken', () => '/dashboard/environments/new', async () => ({ id: await env(), name: 'x' }), 409],
    ['environment delete: clients still in it', () => `/dashboard/environments/${envId}/delete`, async () => ({}), 409],
    ['environment delete: unknown', () => '/dashboard/environments/no-such-env/delete', async () => ({}), 404],
    ['scope create: space in the name', () => '/dashboard/scopes/new', async () => ({ name: 'two words' }), 400],
    ['scope create: exists', () => '/dashboard/scopes/new', async () => ({ name: 'read' }), 409],
    ['scope delete: granted to a client (ADMIN-18)', () => '/dashboard/scopes/remove', async () => ({ name: await newScope(true) }), 409],
    ['scope delete: built in (ADMIN-18)', () => '/dashboard/scopes/remove', async () => ({ name: 'openid' }), 409],
    ['scope delete: unknown', () => '/dashboard/scopes/remove', async () => ({ name: 'no-such-scope' }), 404],
    ['scope delete: not a scope-token', () => '/dashboard/scopes/remove', async () => ({ name: 'two words' }), 400],
    ['scope delete: no name', () => '/dashboard/scopes/remove', async () => ({}), 400],
    ...trustedIssuerRefusals(),
    ['no such form', () => '/dashboard/clients/new/extra', async () => ({}), 404],
    ['an id longer than any key', () => `/dashboard/clients/${'x'.repeat(3000)}`, async () => ({ name: 'ok', scopes: '' }), 404],
  ];

  it.each(cases)('%s', async (_what, path, fields, status) => {
    const clientBefore = await getClientRepository().get(clientId);
    const sent = await fields();
    const response = await post(session, path(), sent);
    expect(response.statusCode).toBe(status);
    expect(header(response, 'Content-Type')).toMatch(/^text\/html/);
    expect(response.body).toMatch(/class="error"/);
    expect(await getClientRepository().get(clientId)).toEqual(clientBefore);
    expect(await auditBy(session.user.id)).toEqual([]);
  });

  it('a repeated field or a JSON body is refused (400, 415), never a 500', async () => {
    const repeated = await request(
      'POST',
      '/dashboard/scopes/new',
      { Cookie: session.cookie, 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      `csrf=${session.csrf}&name=a&name=b`,
    );
    expect(repeated.statusCode).toBe(400);
    const asJson = await request(
      'POST',
      '/dashboard/scopes/new',
      { Cookie: session.cookie, 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      JSON.stringify({ csrf: session.csrf, name: 'x' }),
    );
    expect(asJson.statusCode).toBe(415);
    expect(await auditBy(session.user.id)).toEqual([]);
  });
});

describe('behaviour DASH-5: changes call the admin API core and are audited with the admin as actor', () => {
  it('a confidential client: the secret once (DASH-13), never on its page; edits and deletion audited', async () => {
    const session = await adminSession();
    const created = await post(session, '/dashboard/clients/new', {
      type: 'confidential',
      name: 'Dashboard client',
      environment_id: await testFileEnvironment(),
      scopes: 'read',
      redirect_uris: '',
    });
    const shown = await follow(session, created);
    const clientId = /id="client-id">([^<]+)</.exec(shown.body)![1]!;
    const secret = /id="client-secret">([^<]+)</.exec(shown.body)![1]!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await get(session, `/dashboard/clients/${clientId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(secret);
    expect(page.body).not.toContain('$argon2id$');

    const edited = await post(session, `/dashboard/clients/${clientId}`, { name: 'Renamed', scopes: 'read write' });
    expect(edited.statusCode).toBe(303);
    expect(await getClientRepository().get(clientId)).toMatchObject({ name: 'Renamed', scopes: ['read', 'write'] });
    expect((await post(session, `/dashboard/clients/${clientId}/delete`, {})).statusCode).toBe(303);
    expect(await getClientRepository().get(clientId)).toBeUndefined();

    const entries = (await auditBy(session.user.id)).map((e) => [e.type, e.clientId, e.reason]);
    expect(entries).toEqual([
      ['client.delete', clientId, undefined],
      ['client.update', clientId, 'name, scopes'],
      ['client.create', clientId, undefined],
    ]);
  });

  it("a client's refresh grace window (behaviour REFRESH-7): shown, set, cleared back to the server's; client.update names it", async () => {
    const session = await adminSession();
    const client = await createClient({ kind: 'app', test: false });
    const edit = (refreshGrace: string) =>
      post(session, `/dashboard/clients/${client.clientId}`, {
        name: client.name,
        scopes: client.scopes.join(' '),
        redirect_uris: client.redirectUris.join('\n'),
        refresh_grace_seconds: refreshGrace,
      });
    const page = await get(session, `/dashboard/clients/${client.clientId}`);
    expect(page.body).toMatch(/id="refresh-grace">the server(&#39;|&#x27;|')s, 0 s</);
    expect(page.body).toContain('name="refresh_grace_seconds"');

    expect((await edit('45')).statusCode).toBe(303);
    expect((await getClientRepository().get(client.clientId))?.refreshGraceSeconds).toBe(45);
    expect((await get(session, `/dashboard/clients/${client.clientId}`)).body).toContain('id="refresh-grace">45 s<');
    expect((await edit('')).statusCode).toBe(303);
    expect((await getClientRepository().get(client.clientId))?.refreshGraceSeconds).toBeUndefined();
    const entries = (await auditBy(session.user.id)).map((e) => [e.type, e.clientId, e.reason]);
    expect(entries).toEqual([
      ['client.update', client.clientId, 'refreshGraceSeconds'],
      ['client.update', client.clientId, 'refreshGraceSeconds'],
    ]);

    // Set on creation too.
    const created = await post(session, '/dashboard/clients/new', {
      type: 'public',
      name: 'Graceful',
      environment_id: client.environmentId,
      redirect_uris: 'https://app.example.test/cb',
      refresh_grace_seconds: '20',
    });
    expect(created.statusCode).toBe(303);
    const createdId = createdClientId(created);
    expect((await getClientRepository().get(createdId))?.refreshGraceSeconds).toBe(20);

    // A client whose refresh tokens never rotate has no window to set.
    const service = await createClient({ test: false });
    expect((await get(session, `/dashboard/clients/${service.clientId}`)).body).not.toContain('refresh_grace_seconds');
  });

  it('a private_key_jwt client (behaviour ADMIN-19): keys instead of a secret, shown on its page, rotated by the edit form', async () => {
    const session = await adminSession();
    const key = {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      kid: 'k1',
    };
    const created = await post(session, '/dashboard/clients/new', {
      type: 'confidential',
      name: 'Keyed client',
      environment_id: await testFileEnvironment(),
      scopes: '',
      redirect_uris: '',
      jwks: JSON.stringify({ keys: [key] }),
      token_endpoint_auth_signing_alg: 'ES256',
    });
    expect(header(created, 'Location')).toMatch(/^\/dashboard\/clients\/[^/]+\?done=created$/);
    const clientId = createdClientId(created);
    expect(await getClientRepository().get(clientId)).toMatchObject({ jwks: { keys: [key] }, tokenEndpointAuthSigningAlg: 'ES256' });
    const page = await get(session, `/dashboard/clients/${clientId}`);
    expect(page.body).toMatch(/id="authentication">private_key_jwt, keys k1 \(ES256 only\)/);
    const rotated = { ...key, kid: 'k2' };
    const edited = await post(session, `/dashboard/clients/${clientId}`, {
      name: 'Keyed client',
      scopes: '',
      jwks: JSON.stringify({ keys: [rotated] }),
    });
    expect(edited.statusCode).toBe(303);
    expect((await getClientRepository().get(clientId))?.jwks).toEqual({ keys: [rotated] });
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.reason])).toEqual([
      ['client.update', 'jwks'],
      ['client.create', undefined],
    ]);
  });

  it('behaviour TOKEN-9: the client form sets and clears dpop_bound_access_tokens, audited by name', async () => {
    const session = await adminSession();
    const created = await post(session, '/dashboard/clients/new', {
      type: 'confidential',
      name: 'DPoP client',
      environment_id: await testFileEnvironment(),
      scopes: 'read',
      redirect_uris: '',
      dpop_bound_access_tokens: 'on',
    });
    const clientId = createdClientId(created);
    expect((await getClientRepository().get(clientId))?.dpopBoundAccessTokens).toBe(true);
    const page = await get(session, `/dashboard/clients/${clientId}`);
    expect(page.body).toContain('<tr><th>DPoP required</th><td>yes</td></tr>');
    expect(page.body).toContain('name="dpop_bound_access_tokens" type="checkbox" checked');
    expect((await post(session, `/dashboard/clients/${clientId}`, { name: 'DPoP client', scopes: 'read' })).statusCode).toBe(303);
    expect((await getClientRepository().get(clientId))?.dpopBoundAccessTokens).toBe(false);
    const refused = await post(session, `/dashboard/clients/${clientId}`, {
      name: 'DPoP client',
      scopes: 'read',
      dpop_bound_access_tokens: 'yes',
    });
    expect(refused.statusCode).toBe(400);
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.reason])).toEqual([
      ['client.update', 'dpopBoundAccessTokens'],
      ['client.create', undefined],
    ]);
  });

  it('an API key: shown once on creation, listed active, revoked; api_key.create and api_key.revoke name the admin', async () => {
    const session = await adminSession();
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    const created = await post(session, `/dashboard/clients/${client.clientId}/keys`, { user: user.email!, name: 'CI key' });
    const apiKey = /id="api-key">([^<]+)</.exec((await follow(session, created)).body)![1]!;
    expect(apiKey).toMatch(/^tgk_[0-9a-f]{16}_/);
    const keyId = apiKey.split('_')[1]!;
    expect((await get(session, `/dashboard/clients/${client.clientId}`)).body).not.toContain(apiKey);
    const revoked = await post(session, `/dashboard/clients/${client.clientId}/keys/${keyId}/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    expect((await getApiKeyStore().get(keyId))?.revokedAt).toBeDefined();
    const page = await get(session, `/dashboard/clients/${client.clientId}`);
    expect(page.body).toMatch(new RegExp(`data-key-id="${keyId}"[\\s\\S]*?<td class="status">revoked</td>`));
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.keyId])).toEqual([
      ['api_key.revoke', keyId],
      ['api_key.create', keyId],
    ]);
  });

  it('a scope (behaviour ADMIN-18): a Delete link, a confirmation page, then deleted and audited; built-in ones offer none', async () => {
    const session = await adminSession();
    const name = `dash:${uniqueSuffix()}/files?mode=write`;
    expect((await post(session, '/dashboard/scopes/new', { name, description: 'Write files' })).statusCode).toBe(303);
    const list = await get(session, '/dashboard/scopes');
    const confirmPath = `/dashboard/scopes/delete?${new URLSearchParams({ name }).toString().replaceAll('&', '&amp;')}`;
    expect(list.body).toContain(`href="${confirmPath}"`);
    expect(list.body).toMatch(/<code>openid<\/code>[^\n]*\n<td><span class="tag">built in<\/span>/);

    const confirmation = await get(session, '/dashboard/scopes/delete', { name });
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain(`Delete the scope ${name}?`);
    expect(confirmation.body).toContain('action="/dashboard/scopes/remove"');
    expect(confirmation.body).toContain(`name="name" value="${name}"`);
    expect(await scopeNames()).toContain(name);

    const deleted = await post(session, '/dashboard/scopes/remove', { name });
    expect(deleted.statusCode).toBe(303);
    expect(header(deleted, 'Location')).toBe('/dashboard/scopes?done=scope-deleted');
    expect(await scopeNames()).not.toContain(name);
    expect((await get(session, '/dashboard/scopes', { done: 'scope-deleted' })).body).toContain('The scope was deleted.');
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.scope])).toEqual([
      ['scope.delete', name],
      ['scope.create', name],
    ]);
    expect((await get(session, '/dashboard/scopes/delete', { name })).statusCode).toBe(404);
  });

  it('a scope granted to a client is refused (ADMIN-18) with a page naming the client and a way back; nothing deleted or audited', async () => {
    const session = await adminSession();
    const name = await newScope();
    const holder = await createClient({ scopes: [name] });
    const refused = await post(session, '/dashboard/scopes/remove', { name });
    expect(refused.statusCode).toBe(409);
    expect(header(refused, 'Content-Type')).toMatch(/^text\/html/);
    expect(refused.body).toMatch(/class="error"/);
    expect(refused.body).toContain(holder.clientId);
    expect(refused.body).toContain('remove it from them first');
    expect(refused.body).toContain('<a href="/dashboard/scopes">Back</a>');
    expect(await scopeNames()).toContain(name);
    expect(await auditBy(session.user.id)).toEqual([]);
  });

  it('a trusted issuer (behaviour TRUST-1, DASH-6): created, shown, edited, deleted after a confirmation page; each audited', async () => {
    const session = await adminSession();
    const environmentId = await testFileEnvironment();
    const { trustedIssuer: sample } = await createTrustedIssuer();
    const issuer = `https://idp-${uniqueSuffix()}.example.com`;
    const rules = [{ subject: 'system:serviceaccount:ci:*', scopes: ['read'], resources: ['https://mcp.example.test/'] }];
    const created = await post(session, '/dashboard/trusted-issuers/new', {
      issuer,
      profile: 'workload',
      environment_id: environmentId,
      description: 'CI cluster',
      jwks: JSON.stringify(sample.jwks),
      jwks_uri: '',
      // The id-jag fields the shared form also sends are not the workload's: left out, not refused.
      user_claim: 'sub',
      rules: JSON.stringify(rules),
    });
    expect(created.statusCode).toBe(303);
    const stored = (await getTrustedIssuerStore().workloadIssuer(issuer))!;
    expect(stored).toMatchObject({ environmentId, profile: 'workload', description: 'CI cluster', rules, jwks: sample.jwks });
    const detail = `/dashboard/trusted-issuers/${stored.trustedIssuerId}`;
    expect(header(created, 'Location')).toBe(`${detail}?done=created`);
    const list = await get(session, '/dashboard/trusted-issuers');
    expect(list.body).toContain(`href="${detail}"`);
    const page = await get(session, detail);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(stored.trustedIssuerId);
    expect(page.body).toContain('system:serviceaccount:ci:*');

    const edited = await post(session, detail, {
      description: '',
      jwks: '',
      jwks_uri: 'https://ci.example.test/keys',
      rules: JSON.stringify(rules),
    });
    expect(edited.statusCode).toBe(303);
    const after = (await getTrustedIssuerStore().workloadIssuer(issuer))!;
    expect(after).toMatchObject({ jwksUri: 'https://ci.example.test/keys' });
    expect(after).not.toHaveProperty('jwks');
    expect(after).not.toHaveProperty('description');

    const confirmation = await get(session, `${detail}/delete`);
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain(`Stop trusting ${issuer}?`);
    expect(await getTrustedIssuerStore().workloadIssuer(issuer)).toBeDefined();
    const deleted = await post(session, `${detail}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect(header(deleted, 'Location')).toBe('/dashboard/trusted-issuers?done=deleted');
    expect(await getTrustedIssuerStore().workloadIssuer(issuer)).toBeUndefined();
    expect((await get(session, detail)).statusCode).toBe(404);
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.trustedIssuerId, e.reason])).toEqual([
      ['trusted_issuer.delete', stored.trustedIssuerId, undefined],
      ['trusted_issuer.update', stored.trustedIssuerId, 'jwks, jwks_uri, description'],
      ['trusted_issuer.create', stored.trustedIssuerId, undefined],
    ]);
  });

  it('a user: created, granted an environment, signed out everywhere, deleted; each audited', async () => {
    const session = await adminSession();
    const email = `dash-${uniqueSuffix()}@example.test`;
    const created = await post(session, '/dashboard/users/new', { name: 'Dash user', email, password: 'correct horse battery' });
    expect(created.statusCode).toBe(303);
    const user = (await getUsers().findByEmail(email))!;
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const page = await get(session, `/dashboard/users/${user.id}`);
    expect(page.body).not.toContain('$argon2id$');
    expect(page.body).toContain('not verified');
    const environmentId = await testFileEnvironment();
    expect((await post(session, `/dashboard/users/${user.id}/environments`, { environment_id: environmentId })).statusCode).toBe(303);
    expect((await getEnvironments().grantsOf(user.id)).map((g) => g.environmentId)).toEqual([environmentId]);
    const victim = await sessionOf(user, ['pwd']);
    expect((await post(session, `/dashboard/users/${user.id}/sign-out-everywhere`, {})).statusCode).toBe(303);
    expect(await getSessions().getSession(victim.cookie.split('=')[1]!, Math.floor(Date.now() / 1000))).toBeUndefined();
    expect((await post(session, `/dashboard/users/${user.id}/delete`, {})).statusCode).toBe(303);
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect((await auditBy(session.user.id)).map((e) => [e.type, e.userId])).toEqual([
      ['user.delete', user.id],
      ['user.sessions_revoke', user.id],
      ['user.environment_grant', user.id],
      ['user.create', user.id],
    ]);
  });
});

describe('behaviour AUTHZ-18, DASH-5: the client form sets require_pushed_authorization_requests', () => {
  it('ticked on creation, shown on the client page, unticked by an edit; audited with the admin as actor', async () => {
    const session = await adminSession();
    const created = await post(session, '/dashboard/clients/new', {
      type: 'public',
      name: 'PAR client',
      environment_id: await testFileEnvironment(),
      scopes: 'openid',
      redirect_uris: 'https://app.example.test/cb',
      require_pushed_authorization_requests: 'on',
    });
    expect(created.statusCode).toBe(303);
    const clientId = createdClientId(created);
    expect((await getClientRepository().get(clientId))?.requirePushedAuthorizationRequests).toBe(true);
    const page = await get(session, `/dashboard/clients/${clientId}`);
    expect(page.body).toContain('<td id="par-required">required</td>');
    expect(page.body).toContain('name="require_pushed_authorization_requests" type="checkbox" checked');

    const edited = await post(session, `/dashboard/clients/${clientId}`, { name: 'PAR client', scopes: 'openid' });
    expect(edited.statusCode).toBe(303);
    expect((await getClientRepository().get(clientId))?.requirePushedAuthorizationRequests).toBe(false);
    expect((await get(session, `/dashboard/clients/${clientId}`)).body).toContain('<td id="par-required">not required</td>');
    const entries = (await auditBy(session.user.id)).filter((e) => e.clientId === clientId).map((e) => [e.type, e.reason]);
    expect(entries).toEqual([
      ['client.update', 'requirePushedAuthorizationRequests'],
      ['client.create', undefined],
    ]);
  });

  it('a box value other than "on" is a readable 400 page, nothing changed and no entry', async () => {
    const session = await adminSession();
    const client = await createClient({ kind: 'app', requirePushedAuthorizationRequests: true });
    const refused = await post(session, `/dashboard/clients/${client.clientId}`, {
      name: 'x',
      scopes: '',
      require_pushed_authorization_requests: 'yes',
    });
    expect(refused.statusCode).toBe(400);
    expect((await getClientRepository().get(client.clientId))?.requirePushedAuthorizationRequests).toBe(true);
    expect(await auditBy(session.user.id)).toEqual([]);
  });
});
