/** /api/admin/trusted-issuers (behaviour TRUST-1..TRUST-8): each call, each refusal with nothing written, the audit entries. */
import { exportJWK, generateKeyPair } from 'jose';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import { handler as createHandler } from '../../lambdas/handlers/admin/trusted-issuers-create';
import { handler as deleteHandler } from '../../lambdas/handlers/admin/trusted-issuers-delete';
import { handler as getHandler } from '../../lambdas/handlers/admin/trusted-issuers-get';
import { handler as listHandler } from '../../lambdas/handlers/admin/trusted-issuers-list';
import { handler as updateHandler } from '../../lambdas/handlers/admin/trusted-issuers-update';
import { handler as deleteEnvironmentHandler } from '../../lambdas/handlers/admin/environments-delete';
import { handler as deleteScopeHandler } from '../../lambdas/handlers/admin/scopes-delete';
import { listScopes } from '../../lambdas/core/admin/scopes';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getEnvironments } from '../../lambdas/wiring/repositories';
import { getTrustedIssuerStore } from '../../lambdas/wiring/trusted-issuers';
import { auditPartition, callAdmin, ensureScopes } from '../support/admin-calls';
import { jsonBody } from '../support/events';
import {
  adminClientToken,
  createClient,
  createEnvironment,
  createTrustedIssuer,
  issueAccessToken,
  uniqueSuffix,
} from '../support/fixtures';

let token: string;
let adminClientId: string;
let environmentId: string;
let publicKey: Record<string, unknown>;
let privateKey: Record<string, unknown>;

beforeAll(async () => {
  await ensureScopes('openid', 'admin', 'mcp:tools');
  const admin = await adminClientToken();
  token = admin.token;
  adminClientId = admin.client.clientId;
  environmentId = await createEnvironment();
  const pair = await generateKeyPair('ES256', { extractable: true });
  publicKey = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  privateKey = { ...(await exportJWK(pair.privateKey)), kid: 'k1' };
});

const issuerUrl = () => `https://idp-${uniqueSuffix()}.example.com`;
const idJag = (overrides: Record<string, unknown> = {}) => ({
  issuer: issuerUrl(),
  profile: 'id-jag',
  environment_id: environmentId,
  jwks: { keys: [publicKey] },
  ...overrides,
});
const workload = (overrides: Record<string, unknown> = {}) => ({
  issuer: issuerUrl(),
  profile: 'workload',
  environment_id: environmentId,
  jwks_uri: 'https://platform.example.com/keys',
  rules: [
    {
      subject: 'repo:acme/*:ref:refs/heads/main',
      claims: { environment: 'production' },
      scopes: ['mcp:tools'],
      resources: ['https://mcp.example.com/'],
    },
  ],
  ...overrides,
});

const create = (body: unknown, as = token) => callAdmin(createHandler, { token: as, method: 'POST', body });
const read = (id: string, as = token) => callAdmin(getHandler, { token: as, pathParameters: { trusted_issuer_id: id } });
const update = (id: string, body: unknown, as = token) =>
  callAdmin(updateHandler, { token: as, method: 'PATCH', pathParameters: { trusted_issuer_id: id }, body });
const remove = (id: string, as = token) =>
  callAdmin(deleteHandler, { token: as, method: 'DELETE', pathParameters: { trusted_issuer_id: id } });

const entriesOf = async (issuer: string) => (await auditPartition(partitions.siteAudit)).filter((entry) => entry.issuer === issuer);

/** Behaviour ADMIN-3: a refusal writes nothing: neither trust nor its audit entry. */
async function expectNothingWritten(body: { issuer?: unknown; environment_id?: unknown }): Promise<void> {
  const issuer = String(body.issuer);
  expect(await getTrustedIssuerStore().idJagIssuer(String(body.environment_id ?? environmentId), issuer)).toBeUndefined();
  expect(await getTrustedIssuerStore().workloadIssuer(issuer)).toBeUndefined();
  expect(await entriesOf(issuer)).toEqual([]);
}

describe('creating, reading, listing, updating and deleting (behaviour TRUST-1)', () => {
  it('201 an id-jag issuer with its defaults, then 200 on read, newest first in the list, with its audit entry', async () => {
    const body = idJag({ description: 'Acme Okta' });
    const result = await create(body);
    expect(result.statusCode).toBe(201);
    const created = jsonBody(result);
    expect(created).toEqual({
      trusted_issuer_id: expect.stringMatching(/^tri_/),
      environment_id: environmentId,
      issuer: body.issuer,
      profile: 'id-jag',
      jwks: { keys: [publicKey] },
      jwks_uri: null,
      description: 'Acme Okta',
      user_claim: 'sub',
      create_users: false,
      allow_refresh_tokens: false,
      created_at: expect.any(String),
      updated_at: null,
    });
    const id = String(created.trusted_issuer_id);
    expect(jsonBody(await read(id))).toEqual(created);
    const listed = jsonBody(await callAdmin(listHandler, { token, query: { limit: '100' } }));
    const ids = (listed.items as { trusted_issuer_id: string }[]).map((item) => item.trusted_issuer_id);
    expect(ids.indexOf(id)).toBeGreaterThanOrEqual(0);
    // The grant's lookup finds it by environment and URL (behaviour TRUST-2).
    expect((await getTrustedIssuerStore().idJagIssuer(environmentId, String(body.issuer)))?.trustedIssuerId).toBe(id);
    const [entry] = await entriesOf(String(body.issuer));
    expect(entry).toMatchObject({
      type: 'trusted_issuer.create',
      trustedIssuerId: id,
      environmentId,
      actor: { kind: 'admin-client', clientId: adminClientId },
    });
  });

  it('lists newest first, in pages of `limit` with a cursor (behaviour ADMIN-4)', async () => {
    const older = jsonBody(await create(idJag()));
    const newer = jsonBody(await create(idJag()));
    const first = jsonBody(await callAdmin(listHandler, { token, query: { limit: '1' } }));
    expect(first.next_cursor).toEqual(expect.any(String));
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = jsonBody(await callAdmin(listHandler, { token, query: { limit: '100', ...(cursor ? { cursor } : {}) } }));
      ids.push(...(page.items as { trusted_issuer_id: string }[]).map((item) => item.trusted_issuer_id));
      cursor = page.next_cursor as string | undefined;
    } while (cursor);
    expect(ids.indexOf(String(newer.trusted_issuer_id))).toBeLessThan(ids.indexOf(String(older.trusted_issuer_id)));
    expect((await callAdmin(listHandler, { token, query: { cursor: 'forged' } })).statusCode).toBe(400);
  });

  it('201 a workload issuer with its rules and a jwks_uri; the grant finds it by URL alone', async () => {
    const body = workload();
    const result = await create(body);
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({ profile: 'workload', jwks: null, jwks_uri: body.jwks_uri, rules: body.rules });
    expect(jsonBody(result)).not.toHaveProperty('user_claim');
    expect((await getTrustedIssuerStore().workloadIssuer(String(body.issuer)))?.rules).toEqual(body.rules);
  });

  it('200 an update (behaviour TRUST-7): new keys replace the old, description null removes it; audited with the changed fields', async () => {
    const created = jsonBody(await create(idJag({ description: 'first' })));
    const id = String(created.trusted_issuer_id);
    const result = await update(id, {
      jwks_uri: 'https://idp.example.com/jwks',
      description: null,
      create_users: true,
      user_claim: 'email',
    });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      jwks: null,
      jwks_uri: 'https://idp.example.com/jwks',
      description: null,
      create_users: true,
      user_claim: 'email',
      updated_at: expect.any(String),
      created_at: created.created_at,
    });
    const stored = await getTrustedIssuerStore().idJagIssuer(environmentId, String(created.issuer));
    expect(stored).toMatchObject({ jwksUri: 'https://idp.example.com/jwks', createUsers: true, userClaim: 'email' });
    expect(stored).not.toHaveProperty('jwks');
    const entries = await entriesOf(String(created.issuer));
    expect(entries.find((entry) => entry.type === 'trusted_issuer.update')).toMatchObject({
      reason: 'jwks, jwks_uri, description, user_claim, create_users',
      actor: { kind: 'admin-client', clientId: adminClientId },
    });
  });

  it('200 a workload issuer’s new rules, checked against the catalog as at creation (behaviour TRUST-6, TRUST-7)', async () => {
    const created = jsonBody(await create(workload()));
    const id = String(created.trusted_issuer_id);
    const rules = [
      { subject: 'spiffe://prod.example/ns/*/sa/api', scopes: ['openid', 'mcp:tools'], resources: ['https://mcp.example.com/'] },
    ];
    const result = await update(id, { rules });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).rules).toEqual(rules);
    expect((await getTrustedIssuerStore().workloadIssuer(String(created.issuer)))?.rules).toEqual(rules);
    const refused = await update(id, { rules: [{ ...rules[0], scopes: ['nope:x'] }] });
    expect([refused.statusCode, jsonBody(refused).error_description]).toEqual([400, 'rules.0.scopes: unknown scope "nope:x".']);
    expect((await getTrustedIssuerStore().workloadIssuer(String(created.issuer)))?.rules).toEqual(rules);
    expect((await entriesOf(String(created.issuer))).filter((entry) => entry.type === 'trusted_issuer.update')).toHaveLength(1);
  });

  it('204 a delete, audited; the grant no longer finds it; then 404 for read, update and a second delete', async () => {
    const created = jsonBody(await create(workload()));
    const id = String(created.trusted_issuer_id);
    expect((await remove(id)).statusCode).toBe(204);
    expect(await getTrustedIssuerStore().workloadIssuer(String(created.issuer))).toBeUndefined();
    expect((await read(id)).statusCode).toBe(404);
    expect(jsonBody(await read(id)).error).toBe('not_found');
    expect((await update(id, { description: 'x' })).statusCode).toBe(404);
    expect((await remove(id)).statusCode).toBe(404);
    expect((await entriesOf(String(created.issuer))).map((entry) => entry.type).sort()).toEqual([
      'trusted_issuer.create',
      'trusted_issuer.delete',
    ]);
  });
});

describe('bad input: 400 invalid_request naming the field, nothing written (behaviour TRUST-3..TRUST-6, ADMIN-3)', () => {
  const cases: [string, () => Record<string, unknown>, RegExp][] = [
    ['a non-https issuer (TRUST-3)', () => idJag({ issuer: `http://idp-${uniqueSuffix()}.example.com` }), /^issuer: must use https/],
    [
      'an issuer with a query (TRUST-3)',
      () => idJag({ issuer: `https://idp-${uniqueSuffix()}.example.com/?tenant=1` }),
      /^issuer: must not contain a query/,
    ],
    [
      'an issuer with a fragment (TRUST-3)',
      () => idJag({ issuer: `https://idp-${uniqueSuffix()}.example.com/#x` }),
      /^issuer: must not contain a fragment/,
    ],
    ['both jwks and jwks_uri (TRUST-4)', () => idJag({ jwks_uri: 'https://idp.example.com/jwks' }), /^jwks, jwks_uri: exactly one/],
    ['neither jwks nor jwks_uri (TRUST-4)', () => idJag({ jwks: undefined }), /^jwks, jwks_uri: exactly one/],
    [
      'a private key in jwks (TRUST-4)',
      () => idJag({ jwks: { keys: [privateKey] } }),
      /^jwks: keys\.0: is a private or symmetric key \(it has d\)/,
    ],
    ['a key without kid (TRUST-4)', () => idJag({ jwks: { keys: [{ ...publicKey, kid: undefined }] } }), /^jwks: keys\.0: kid/],
    [
      'two keys with one kid (TRUST-4)',
      () => idJag({ jwks: { keys: [publicKey, publicKey] } }),
      /^jwks: keys\.1: kid "k1" is used by another key/,
    ],
    [
      'a symmetric key (TRUST-4)',
      () => idJag({ jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 's' }] } }),
      /^jwks: keys\.0: is a private or symmetric key/,
    ],
    ['an empty key set (TRUST-4)', () => idJag({ jwks: { keys: [] } }), /^jwks: keys: must hold 1 to 20 keys/],
    ['21 keys (TRUST-4)', () => idJag({ jwks: { keys: Array.from({ length: 21 }, (_, i) => ({ ...publicKey, kid: `k${i}` })) } }), /^jwks/],
    ['an http jwks_uri (TRUST-4)', () => idJag({ jwks: undefined, jwks_uri: 'http://idp.example.com/jwks' }), /^jwks_uri: must use https/],
    ['an unknown environment', () => idJag({ environment_id: `env_none${uniqueSuffix()}` }), /^environment_id: no environment/],
    ['rules on an id-jag issuer (TRUST-5)', () => idJag({ rules: workload().rules }), /^rules: only a workload issuer/],
    ['user_claim on a workload issuer (TRUST-5)', () => workload({ user_claim: 'email' }), /^user_claim: only an id-jag issuer/],
    ['an unknown user_claim (TRUST-5)', () => idJag({ user_claim: 'upn' }), /user_claim/],
    ['a workload issuer without rules (TRUST-6)', () => workload({ rules: undefined }), /^rules: a workload issuer needs its rules/],
    [
      'an unknown scope in a rule (TRUST-6)',
      () => workload({ rules: [{ subject: 's', scopes: ['mcp:tools', 'nope:x'], resources: ['https://r.example'] }] }),
      /^rules\.0\.scopes: unknown scope "nope:x"/,
    ],
    [
      'the admin scope in a rule (TRUST-6)',
      () => workload({ rules: [{ subject: 's', scopes: ['admin'], resources: ['https://r.example'] }] }),
      /^rules\.0\.scopes: the "admin" scope/,
    ],
    [
      'a subject of three * (TRUST-6)',
      () => workload({ rules: [{ subject: 'a***', scopes: [], resources: ['https://r.example'] }] }),
      /^rules\.0\.subject/,
    ],
    [
      'a rule matching on sub by claims (TRUST-6)',
      () => workload({ rules: [{ subject: 's', claims: { sub: 'x' }, scopes: [], resources: ['https://r.example'] }] }),
      /^rules\.0\.claims\.sub/,
    ],
    [
      'a resource with a fragment (TRUST-6)',
      () => workload({ rules: [{ subject: 's', scopes: [], resources: ['https://r.example/#f'] }] }),
      /^rules\.0\.resources\.0: must not contain a fragment/,
    ],
    ['a rule without resources (TRUST-6)', () => workload({ rules: [{ subject: 's', scopes: [] }] }), /resources/],
    ['an unknown profile', () => idJag({ profile: 'saml' }), /profile/],
    ['an unknown field', () => idJag({ audience: 'x' }), /audience/],
  ];

  it.each(cases)('%s', async (_what, body, description) => {
    const sent = body();
    const result = await create(sent);
    expect([result.statusCode, jsonBody(result).error]).toEqual([400, 'invalid_request']);
    expect(String(jsonBody(result).error_description)).toMatch(description);
    await expectNothingWritten(sent);
  });

  it('an update may not change the issuer, the profile or the environment, nor set the other profile’s fields, nor be empty', async () => {
    const created = jsonBody(await create(idJag()));
    const id = String(created.trusted_issuer_id);
    for (const body of [
      { issuer: issuerUrl() },
      { profile: 'workload' },
      { environment_id: environmentId },
      { rules: workload().rules },
      { jwks: { keys: [publicKey] }, jwks_uri: 'https://idp.example.com/jwks' },
      { jwks: { keys: [privateKey] } },
      {},
    ]) {
      const result = await update(id, body);
      expect([JSON.stringify(body), result.statusCode, jsonBody(result).error]).toEqual([JSON.stringify(body), 400, 'invalid_request']);
    }
    expect(jsonBody(await read(id))).toEqual(created);
    expect((await entriesOf(String(created.issuer))).map((entry) => entry.type)).toEqual(['trusted_issuer.create']);
  });
});

describe('conflicts: 409, nothing written (behaviour TRUST-2)', () => {
  it('the same issuer twice for id-jag in one environment; in another environment it is a trust of its own', async () => {
    const body = idJag();
    const first = jsonBody(await create(body));
    const again = await create(body);
    expect([again.statusCode, jsonBody(again).error]).toEqual([409, 'invalid_request']);
    expect(String(jsonBody(again).error_description)).toMatch(/already trusted for id-jag in environment/);
    expect((await entriesOf(String(body.issuer))).length).toBe(1);
    const elsewhere = await create({ ...body, environment_id: await createEnvironment() });
    expect(elsewhere.statusCode).toBe(201);
    expect(jsonBody(elsewhere).trusted_issuer_id).not.toBe(first.trusted_issuer_id);
  });

  it('a second workload entry for one issuer URL, in any environment, naming where it is', async () => {
    const body = workload();
    expect((await create(body)).statusCode).toBe(201);
    const otherEnvironment = await createEnvironment();
    const again = await create({ ...body, environment_id: otherEnvironment });
    expect([again.statusCode, jsonBody(again).error]).toEqual([409, 'invalid_request']);
    expect(String(jsonBody(again).error_description)).toMatch(
      new RegExp(`already a workload issuer \\(in environment "${environmentId}"\\)`),
    );
    expect(await getTrustedIssuerStore().idJagIssuer(otherEnvironment, String(body.issuer))).toBeUndefined();
    expect((await entriesOf(String(body.issuer))).length).toBe(1);
    // The URL may still be an id-jag issuer there: the profiles are looked up apart.
    expect((await create(idJag({ issuer: body.issuer, environment_id: otherEnvironment }))).statusCode).toBe(201);
  });

  it('an environment that trusts an issuer is not deleted (behaviour TRUST-8)', async () => {
    const lonely = await createEnvironment();
    const { trustedIssuer } = await createTrustedIssuer({ environmentId: lonely });
    const refused = await callAdmin(deleteEnvironmentHandler, { token, method: 'DELETE', pathParameters: { environment_id: lonely } });
    expect(refused.statusCode).toBe(409);
    expect(String(jsonBody(refused).error_description)).toMatch(/still has trusted issuers/);
    expect(await getEnvironments().get(lonely)).toBeDefined();
    expect((await remove(trustedIssuer.trustedIssuerId)).statusCode).toBe(204);
    expect(
      (await callAdmin(deleteEnvironmentHandler, { token, method: 'DELETE', pathParameters: { environment_id: lonely } })).statusCode,
    ).toBe(204);
  });
});

describe('a scope a workload rule gives (behaviour ADMIN-18, TRUST-6)', () => {
  it('is not deleted while a rule gives it (409 naming the trusted issuer); once the rule is gone, it is', async () => {
    const scope = `wl:${uniqueSuffix()}`;
    await ensureScopes(scope);
    const created = jsonBody(
      await create(workload({ rules: [{ subject: 'job:*', scopes: [scope], resources: ['https://mcp.example.com/'] }] })),
    );
    const removeScope = () => callAdmin(deleteScopeHandler, { token, method: 'DELETE', pathParameters: { name: scope } });
    const refused = await removeScope();
    expect([refused.statusCode, jsonBody(refused).error]).toEqual([409, 'invalid_request']);
    expect(String(jsonBody(refused).error_description)).toBe(
      `The scope "${scope}" is given by the workload rules of 1 trusted issuer ("${created.trusted_issuer_id}"); remove it from them first.`,
    );
    expect((await listScopes(getAdmin())).map((s) => s.name)).toContain(scope);
    const id = String(created.trusted_issuer_id);
    expect((await update(id, { rules: [{ subject: 'job:*', scopes: [], resources: ['https://mcp.example.com/'] }] })).statusCode).toBe(200);
    expect((await removeScope()).statusCode).toBe(204);
  });
});

describe('callers (behaviour ADMIN-1, ADMIN-2)', () => {
  it('refuses a non-admin token with the one 403 on every route, and no token with 401; nothing written', async () => {
    const client = await createClient({ scopes: ['openid'] });
    const plain = (await issueAccessToken({ clientId: client.clientId, scopes: ['openid'] })).token;
    const existing = String(jsonBody(await create(idJag())).trusted_issuer_id);
    const body = idJag();
    for (const result of [
      await create(body, plain),
      await callAdmin(listHandler, { token: plain }),
      await read(existing, plain),
      await update(existing, { description: 'x' }, plain),
      await remove(existing, plain),
    ]) {
      expect([result.statusCode, jsonBody(result)]).toEqual([
        403,
        { error: 'access_denied', error_description: 'This token may not use the admin API.' },
      ]);
    }
    expect((await callAdmin(createHandler, { method: 'POST', body })).statusCode).toBe(401);
    await expectNothingWritten(body);
    expect(jsonBody(await read(existing)).description).toBeNull();
  });
});
