import { randomUUID } from 'node:crypto';
import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import { handler } from '../../lambdas/handlers/register';
import { resetContainer } from '../../lambdas/wiring/container';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

/** Each test registers from its own address, so the daily cap of one does not touch another. */
const freshIp = () => `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 6)}`;

const register = (body: unknown, ip = freshIp(), contentType = 'application/json') =>
  handler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/register',
      headers: { 'Content-Type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      sourceIp: ip,
    }),
    lambdaContext,
  );

const valid = {
  client_name: 'Claude Desktop',
  redirect_uris: ['http://127.0.0.1:33418/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
};

beforeAll(async () => {
  const { db, tables } = getStorage();
  const scopes = new DynamoScopeRepository(db, tables.main);
  for (const name of ['openid', 'profile', 'email']) await scopes.createScope({ name, description: name, discoverable: true });
  await scopes.createScope({ name: 'admin', description: 'admin', discoverable: false });
});

describe('POST /api/register (RFC 7591, behaviour REG-2, REG-3)', () => {
  it('registers a public client: 201, prefixed client_id, echoed metadata, token_endpoint_auth_method none, no secret (behaviour REG-5)', async () => {
    const result = await register({ ...valid, scope: 'openid email' });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      client_id: expect.stringMatching(/^tgc_[0-9a-z]{16}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Claude Desktop',
      redirect_uris: valid.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'openid email',
    });
    expect(Object.keys(body).filter((k) => /secret/.test(k))).toEqual([]);
    expect(headerOf(result, 'cache-control')).toBe('no-store');
  });

  it('keeps dpop_bound_access_tokens (RFC 9449 5.2, behaviour TOKEN-9) and echoes it; a non-boolean is invalid_client_metadata', async () => {
    const body = jsonBody(await register({ ...valid, dpop_bound_access_tokens: true }));
    expect(body.dpop_bound_access_tokens).toBe(true);
    expect((await getClientRepository().get(String(body.client_id)))?.dpopBoundAccessTokens).toBe(true);
    expect(jsonBody(await register(valid))).not.toHaveProperty('dpop_bound_access_tokens');
    const refused = await register({ ...valid, dpop_bound_access_tokens: 'yes' });
    expect([refused.statusCode, jsonBody(refused).error]).toEqual([400, 'invalid_client_metadata']);
    expect(String(jsonBody(refused).error_description)).toMatch(/^dpop_bound_access_tokens: /);
  });

  it('places the client in DCR_ENVIRONMENT_ID, marked dynamic, listed under registration type dynamic (behaviour REG-5)', async () => {
    const { client_id } = jsonBody(await register(valid)) as { client_id: string };
    const stored = await getClientRepository().get(client_id);
    expect(stored).toMatchObject({ type: 'public', registrationType: 'dynamic', environmentId: process.env.DCR_ENVIRONMENT_ID });
    expect(stored).not.toHaveProperty('secretHash');
    let cursor: string | undefined;
    const listed: string[] = [];
    do {
      const page = await getClientRepository().list('dynamic', 100, cursor);
      listed.push(...page.entries.map((entry) => entry.item.clientId));
      cursor = page.next;
    } while (cursor);
    expect(listed).toContain(client_id);
  });

  it('grants the discoverable scopes when none are requested, never the admin scope', async () => {
    const granted = String(jsonBody(await register(valid)).scope).split(' ');
    expect(granted).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
    expect(granted).not.toContain('admin');
  });

  it.each([
    ['an unknown scope', { ...valid, scope: 'openid payroll' }],
    ['the undiscoverable admin scope', { ...valid, scope: 'admin' }],
    ['a confidential auth method', { ...valid, token_endpoint_auth_method: 'client_secret_basic' }],
    ['the client_credentials grant', { ...valid, grant_types: ['client_credentials'] }],
    ['refresh_token without authorization_code', { ...valid, grant_types: ['refresh_token'] }],
    ['an implicit response type', { ...valid, response_types: ['token'] }],
    ['a non-string client_name', { ...valid, client_name: 42 }],
    ['an over-long client_name', { ...valid, client_name: 'x'.repeat(201) }],
    ['a JSON array', [valid]],
    ['a body that is not JSON', '{"redirect_uris": ['],
  ])('behaviour REG-3: %s is invalid_client_metadata (400)', async (_case, body) => {
    const result = await register(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_client_metadata');
  });

  it.each([
    ['a non-string client_name', { ...valid, client_name: 42 }, 'client_name: expected string'],
    ['an over-long client_name', { ...valid, client_name: 'x'.repeat(201) }, 'client_name: must have at most 200 characters'],
    ['an unknown application_type', { ...valid, application_type: 'tv' }, 'application_type: must be one of "web", "native"'],
    ['a non-string redirect URI', { ...valid, redirect_uris: [7] }, 'redirect_uris.0: expected string'],
  ])('behaviour REG-3: %s names the field and the problem in readable words, as every endpoint does', async (_case, body, description) => {
    const result = await register(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error_description).toBe(description);
  });

  it('behaviour REG-2: a form-encoded body is invalid_client_metadata too', async () => {
    const result = await register('redirect_uris=https://a.example/cb', freshIp(), 'application/x-www-form-urlencoded');
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_client_metadata');
  });

  it.each([
    ['missing', { client_name: 'x' }],
    ['empty', { redirect_uris: [] }],
    ['http on a public host', { redirect_uris: ['http://app.example.com/cb'] }],
    ['a wildcard', { redirect_uris: ['https://*.example.com/cb'] }],
    ['a fragment', { redirect_uris: ['https://app.example.com/cb#frag'] }],
    ['a relative URI', { redirect_uris: ['/callback'] }],
    ['a custom scheme', { redirect_uris: ['myapp://callback'] }],
    ['too many', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`) }],
  ])('behaviour REG-3, REG-4: a redirect URI list that is %s is invalid_redirect_uri (400)', async (_case, body) => {
    const result = await register(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_redirect_uri');
  });

  it('accepts https, and http on each loopback host (RFC 8252 7.3)', async () => {
    const uris = ['https://app.example.com/cb', 'http://localhost:8080/cb', 'http://[::1]:9000/cb', 'http://127.0.0.1/cb'];
    expect((await register({ redirect_uris: uris })).statusCode).toBe(201);
  });
});

describe('per-IP daily registration cap (behaviour REG-6: DCR_RATE_LIMIT_PER_DAY, default 10)', () => {
  it('counts rejected and malformed attempts, then answers 429 too_many_requests with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await register('not json', ip)).statusCode).toBe(400);
    for (let i = 0; i < 4; i++) expect((await register({ redirect_uris: ['http://evil.example/cb'] }, ip)).statusCode).toBe(400);
    expect((await register(valid, ip)).statusCode).toBe(201);
    const refused = await register(valid, ip);
    expect(refused.statusCode).toBe(429);
    expect(jsonBody(refused).error).toBe('too_many_requests');
    const retryAfter = Number(headerOf(refused, 'retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await register(valid)).statusCode).toBe(201); // another address is unaffected
  });

  it('lets no more than the cap through under 50 concurrent attempts from one IP', async () => {
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 50 }, () => register(valid, ip)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });
});

describe('registration availability (behaviour REG-1)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.DCR_ENABLED = saved.DCR_ENABLED;
    process.env.DCR_ENVIRONMENT_ID = saved.DCR_ENVIRONMENT_ID;
    if (saved.DCR_ENABLED === undefined) delete process.env.DCR_ENABLED;
    resetContainer();
  });

  it.each([
    ['DCR_ENABLED=false', () => (process.env.DCR_ENABLED = 'false')],
    ['DCR_ENVIRONMENT_ID unset', () => delete process.env.DCR_ENVIRONMENT_ID],
  ])('refuses registration with 403 access_denied when disabled by %s, without counting', async (_case, disable) => {
    disable();
    resetContainer();
    const ip = freshIp();
    for (let i = 0; i < 11; i++) {
      const result = await register(valid, ip);
      expect(result.statusCode).toBe(403);
      expect(jsonBody(result)).toEqual({
        error: 'access_denied',
        error_description: 'Dynamic client registration is not enabled on this server.',
      });
    }
  });
});

describe('unused dynamic clients expire (DCR_CLIENT_EXPIRY_DAYS, default 30)', () => {
  it('registers with an expiry 30 days out, which the first use removes', async () => {
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, tables } = getStorage();
    const { client_id } = jsonBody(await register(valid)) as { client_id: string };
    const ttlOf = async () =>
      (await db.send(new GetCommand({ TableName: tables.main, Key: { pk: `CLIENT#${client_id}`, sk: 'CLIENT' } }))).Item?.ttl as
        | number
        | undefined;
    const expected = Math.floor(Date.now() / 1000) + 30 * 86_400;
    expect(Math.abs((await ttlOf())! - expected)).toBeLessThan(60);
    await getClientRepository().markUsed(client_id);
    expect(await ttlOf()).toBeUndefined();
    expect(await getClientRepository().get(client_id)).toBeDefined();
  });

  it('treats a client past its expiry as absent, before TTL deletes it', async () => {
    const clientRepository = getClientRepository();
    const clientId = `tgc_expired${randomUUID().slice(0, 8)}`;
    await clientRepository.create(
      {
        clientId,
        name: 'x',
        type: 'public',
        environmentId: 'env_dcrtest',
        redirectUris: ['https://a.example/cb'],
        grantTypes: ['authorization_code'],
        scopes: [],
        registrationType: 'dynamic',
        admin: false,
        test: false,
        createdAt: new Date().toISOString(),
      },
      Math.floor(Date.now() / 1000) - 1,
    );
    expect(await clientRepository.get(clientId)).toBeUndefined();
  });
});
