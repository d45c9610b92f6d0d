/**
 * POST /api/token, grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer (RFC 7523 2.1) on
 * DynamoDB Local, with jose-made assertions: the ID-JAG profile for a confidential client
 * (behaviour IDJAG-1..IDJAG-6) and the workload profile with no client (behaviour WIF-1..WIF-4).
 * Every refusal is 400 invalid_grant, writes nothing but its activity row, and names its reason
 * there (behaviour JWTB-2).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import type { User } from '../../lambdas/core/model';
import { dpopKey } from '../support/dpop';
import { getEnvironments, getUsers } from '../../lambdas/wiring/repositories';
import {
  createEnvironment,
  createTokenClient,
  createTokenUser,
  createTrustedIssuer,
  type TestClient,
  type TestTrustedIssuer,
  type TrustedIssuerOptions,
} from '../support/fixtures';
import {
  activityOf,
  basic,
  claimsOf,
  introspectWith,
  issuer,
  postToken,
  resourceA,
  resourceB,
  storedFor,
  verifyAsResourceServer,
} from '../support/token-calls';

const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const now = () => Math.floor(Date.now() / 1000);

let environmentId: string;
let otherEnvironmentId: string;
let app: TestClient;
let user: User;
let idp: TestTrustedIssuer;

beforeAll(async () => {
  [environmentId, otherEnvironmentId] = await Promise.all([createEnvironment(), createEnvironment()]);
  app = await confidentialClient();
  user = await createTokenUser([environmentId]);
  idp = await createTrustedIssuer({ environmentId, profile: 'id-jag' });
});

function confidentialClient(environment = environmentId): Promise<TestClient> {
  return createTokenClient({
    environmentId: environment,
    type: 'confidential',
    grantTypes: [jwtBearer],
    scopes: ['read', 'write'],
    redirectUris: [],
  });
}

/** An assertion signed with the issuer's key (or `key`), its claims and header overridable. */
async function sign(
  trusted: TestTrustedIssuer,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
  key: CryptoKey = trusted.privateKey!,
): Promise<string> {
  const payload = Object.fromEntries(
    Object.entries({ iss: trusted.trustedIssuer.issuer, jti: randomUUID(), iat: now(), exp: now() + 300, ...claims }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: trusted.kid!, ...header }).sign(key);
}

/** An ID-JAG of `idp` for `user` and `app`, with overrides. */
const idJag = (claims: JWTPayload = {}, header: Record<string, unknown> = {}, trusted = idp, client = app, key?: CryptoKey) =>
  sign(
    trusted,
    { sub: user.id, aud: issuer(), client_id: client.client.clientId, resource: resourceA, scope: 'read write', ...claims },
    { typ: 'oauth-id-jag+jwt', ...header },
    key,
  );

const asClient = (client: TestClient) => ({ headers: { Authorization: basic(client.client.clientId, client.secret!) } });
const exchange = (assertion: string, client = app, extra: Record<string, string> = {}) =>
  postToken({ grant_type: jwtBearer, assertion, ...extra }, asClient(client));

/** Behaviour JWTB-2: 400 invalid_grant, a readable description, no token, one failure row naming the reason. */
async function expectRefused(answer: Awaited<ReturnType<typeof postToken>>, clientId: string, reason: RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe('invalid_grant');
  expect(String(answer.body.error_description)).toMatch(/^[A-Z].+\.$/);
  expect(await storedFor(clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  const rows = await activityOf(clientId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ requestType: jwtBearer, success: false });
  expect(rows[0]!.reason).toMatch(/^invalid_grant: /);
  expect(rows[0]!.reason).toMatch(reason);
}

describe('ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant, behaviour IDJAG-1..IDJAG-6)', () => {
  it('issues the user’s token for the asserted resource and scopes, no refresh token (behaviour IDJAG-3, IDJAG-4, IDJAG-6, JWTB-4)', async () => {
    const client = await confidentialClient();
    const { status, body } = await exchange(await idJag({ client_id: client.client.clientId }), client);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    expect(body).not.toHaveProperty('refresh_token');
    expect(body).not.toHaveProperty('id_token');
    const claims = await verifyAsResourceServer(String(body.access_token), resourceA);
    expect(claims).toMatchObject({ sub: user.id, client_id: client.client.clientId, aud: resourceA, scope: 'read write' });
    expect(typeof claims.iat).toBe('number');
    expect(typeof claims.jti).toBe('string');
    expect(await storedFor(client.client.clientId)).toEqual({ tokenRecords: 1, refreshTokens: 0, families: 0 });
    expect(await activityOf(client.client.clientId)).toEqual([
      expect.objectContaining({ requestType: jwtBearer, success: true, userId: user.id, environmentId }),
    ]);
  });

  it('binds the user’s token to the request’s DPoP key (RFC 9449 5, behaviour TOKEN-8)', async () => {
    const client = await confidentialClient();
    const key = await dpopKey();
    const proof = await key.proof('POST', `${issuer()}/api/token`);
    const { status, body } = await postToken(
      { grant_type: jwtBearer, assertion: await idJag({ client_id: client.client.clientId }) },
      { headers: { ...asClient(client).headers, DPoP: proof } },
    );
    expect(status).toBe(200);
    expect(body.token_type).toBe('DPoP');
    expect(await verifyAsResourceServer(String(body.access_token), resourceA)).toMatchObject({ sub: user.id, cnf: { jkt: key.jkt } });
  });

  it('narrows to the requested scope and resource within the assertion (behaviour IDJAG-3, IDJAG-4)', async () => {
    const { status, body } = await exchange(await idJag({ resource: [resourceA, resourceB] }), app, { scope: 'read', resource: resourceB });
    expect(status).toBe(200);
    expect(body.scope).toBe('read');
    expect(claimsOf(body.access_token).aud).toBe(resourceB);
  });

  it('maps the user by the email claim when the issuer says so (behaviour IDJAG-5)', async () => {
    const byEmail = await createTrustedIssuer({ environmentId, profile: 'id-jag', userClaim: 'email' });
    const { status, body } = await exchange(await idJag({ sub: 'idp-opaque-1', email: user.email!.toUpperCase() }, {}, byEmail));
    expect(status).toBe(200);
    expect(claimsOf(body.access_token).sub).toBe(user.id);
  });

  it('creates an unknown user on first use when the issuer creates users: verified address, no password, the environment (behaviour IDJAG-5)', async () => {
    const creating = await createTrustedIssuer({ environmentId, profile: 'id-jag', userClaim: 'email', createUsers: true });
    const email = `new-${randomUUID()}@example.test`;
    const first = await exchange(await idJag({ sub: 'idp-2', email, name: 'Ana Example' }, {}, creating));
    expect(first.status).toBe(200);
    const created = await getUsers().findByEmail(email);
    expect(created).toMatchObject({ email, name: 'Ana Example', admin: false, test: false });
    expect(created?.emailVerifiedAt).toBeDefined();
    expect(created).not.toHaveProperty('passwordHash');
    expect(await getEnvironments().hasAccess(created!.id, environmentId)).toBe(true);
    expect(claimsOf(first.body.access_token).sub).toBe(created!.id);
    // The second use finds the same user.
    const second = await exchange(await idJag({ sub: 'idp-2', email }, {}, creating));
    expect(claimsOf(second.body.access_token).sub).toBe(created!.id);
  });

  it('refuses an unknown user when the issuer does not create users, and creates none (behaviour IDJAG-5)', async () => {
    const byEmail = await createTrustedIssuer({ environmentId, profile: 'id-jag', userClaim: 'email' });
    const client = await confidentialClient();
    const email = `absent-${randomUUID()}@example.test`;
    await expectRefused(
      await exchange(await idJag({ email, client_id: client.client.clientId }, {}, byEmail), client),
      client.client.clientId,
      /no user/,
    );
    expect(await getUsers().findByEmail(email)).toBeUndefined();
  });

  it('issues a refresh token only where the issuer allows it and the client holds the refresh grant; it rotates (behaviour IDJAG-6)', async () => {
    const refreshing = await createTrustedIssuer({ environmentId, profile: 'id-jag', allowRefreshTokens: true });
    const both = await createTokenClient({
      environmentId,
      type: 'confidential',
      grantTypes: ['authorization_code', 'refresh_token', jwtBearer],
      scopes: ['read', 'write'],
    });
    const first = await exchange(await idJag({ client_id: both.client.clientId }, {}, refreshing), both);
    expect(first.status).toBe(200);
    expect(typeof first.body.refresh_token).toBe('string');
    expect(await storedFor(both.client.clientId)).toEqual({ tokenRecords: 1, refreshTokens: 1, families: 1 });
    const rotated = await postToken({ grant_type: 'refresh_token', refresh_token: String(first.body.refresh_token) }, asClient(both));
    expect(rotated.status).toBe(200);
    expect(claimsOf(rotated.body.access_token)).toMatchObject({ sub: user.id, aud: resourceA, client_id: both.client.clientId });
    // The same issuer, a client without the refresh grant: none.
    const without = await exchange(await idJag({}, {}, refreshing));
    expect(without.status).toBe(200);
    expect(without.body).not.toHaveProperty('refresh_token');
  });

  it('refuses a public client with unauthorized_client (behaviour JWTB-1)', async () => {
    const pub = await createTokenClient({ environmentId, type: 'public', grantTypes: [jwtBearer], scopes: ['read'], redirectUris: [] });
    const { status, body } = await postToken({
      grant_type: jwtBearer,
      client_id: pub.client.clientId,
      assertion: await idJag({ client_id: pub.client.clientId }),
    });
    expect(status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
  });

  describe('each bad input is 400 invalid_grant, nothing written, the reason in the activity row (behaviour JWTB-2)', () => {
    let client: TestClient;
    beforeEach(async () => {
      client = await confidentialClient();
    });
    const mine = (claims: JWTPayload = {}) => ({ client_id: client.client.clientId, ...claims });

    it('a wrong typ (behaviour IDJAG-1, RFC 8725 3.11)', async () => {
      await expectRefused(await exchange(await idJag(mine(), { typ: 'JWT' }), client), client.client.clientId, /typ/);
    });
    it('a wrong aud (behaviour IDJAG-1)', async () => {
      await expectRefused(
        await exchange(await idJag(mine({ aud: 'https://elsewhere.example.test' })), client),
        client.client.clientId,
        /aud/,
      );
    });
    it('an expired assertion (RFC 7523 3, point 4)', async () => {
      await expectRefused(
        await exchange(await idJag(mine({ iat: now() - 600, exp: now() - 120 })), client),
        client.client.clientId,
        /expired/,
      );
    });
    it('too long a lifetime (behaviour IDJAG-1: at most 600 s)', async () => {
      await expectRefused(await exchange(await idJag(mine({ exp: now() + 3600 })), client), client.client.clientId, /lifetime/);
    });
    it('a replayed jti (behaviour JWTB-3)', async () => {
      const assertion = await idJag(mine());
      expect((await exchange(assertion, client)).status).toBe(200);
      const replay = await exchange(assertion, client);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      expect(await storedFor(client.client.clientId)).toEqual({ tokenRecords: 1, refreshTokens: 0, families: 0 });
      const rows = await activityOf(client.client.clientId);
      expect(rows.find((row) => !row.success)?.reason).toMatch(/already used/);
    });
    it('a signature by another key (RFC 7523 3, point 9)', async () => {
      const stranger = await createTrustedIssuer({ environmentId: otherEnvironmentId, profile: 'id-jag' });
      await expectRefused(
        await exchange(await idJag(mine(), {}, idp, app, stranger.privateKey), client),
        client.client.clientId,
        /signature|key/,
      );
    });
    it('an untrusted issuer', async () => {
      const assertion = await idJag(mine({ iss: 'https://untrusted.example.test' }));
      await expectRefused(await exchange(assertion, client), client.client.clientId, /not an id-jag issuer/);
    });
    it('an issuer trusted in another environment (behaviour IDJAG-1)', async () => {
      const elsewhere = await createTrustedIssuer({ environmentId: otherEnvironmentId, profile: 'id-jag' });
      await expectRefused(
        await exchange(await idJag(mine(), {}, elsewhere), client),
        client.client.clientId,
        /not an id-jag issuer of environment/,
      );
    });
    it('an unknown user (behaviour IDJAG-5)', async () => {
      await expectRefused(await exchange(await idJag(mine({ sub: 'usr_nobody' })), client), client.client.clientId, /no user usr_nobody/);
      // A sub far longer than any user id is not looked up (a storage key has a bound).
      const long = await confidentialClient();
      await expectRefused(
        await exchange(await idJag({ client_id: long.client.clientId, sub: 'x'.repeat(3000) }), long),
        long.client.clientId,
        /no user x{10}/,
      );
    });
    it('a user without the client’s environment (behaviour IDJAG-5)', async () => {
      const outsider = await createTokenUser([otherEnvironmentId]);
      await expectRefused(await exchange(await idJag(mine({ sub: outsider.id })), client), client.client.clientId, /lacks environment/);
    });
    it('a client_id of another client (behaviour IDJAG-2)', async () => {
      await expectRefused(await exchange(await idJag({ client_id: app.client.clientId }), client), client.client.clientId, /client_id/);
    });
    it('a scope the assertion does not grant (behaviour IDJAG-4)', async () => {
      await expectRefused(
        await exchange(await idJag(mine({ scope: 'read' })), client, { scope: 'write' }),
        client.client.clientId,
        /not asserted: write/,
      );
    });
    it('a resource the assertion does not name (behaviour IDJAG-3)', async () => {
      await expectRefused(await exchange(await idJag(mine()), client, { resource: resourceB }), client.client.clientId, /not asserted/);
    });
  });
});

describe('workload identity federation (MCP SEP-1933, behaviour WIF-1..WIF-4)', () => {
  const k8s = 'system:serviceaccount:tools:indexer';
  const rules: TrustedIssuerOptions['rules'] = [
    { subject: k8s, scopes: ['read'], resources: [resourceA] },
    { subject: 'repo:acme/*:ref:refs/heads/main', scopes: ['read', 'write'], resources: [resourceB] },
    { subject: 'spiffe://acme.example/**', claims: { deployment: 'prod' }, scopes: ['write'], resources: [resourceA, resourceB] },
  ];
  let platform: TestTrustedIssuer;
  beforeAll(async () => {
    platform = await createTrustedIssuer({ environmentId, profile: 'workload', rules });
  });

  const workloadToken = (trusted: TestTrustedIssuer, claims: JWTPayload, header: Record<string, unknown> = {}) =>
    sign(trusted, { aud: `${issuer()}/api/token`, ...claims }, { typ: 'JWT', ...header });
  const present = (assertion: string, extra: Record<string, string> = {}) => postToken({ grant_type: jwtBearer, assertion, ...extra });

  it('an exact subject: the rule’s resource and scopes, sub qualified by the issuer, client_id the trusted issuer (behaviour WIF-3, WIF-4)', async () => {
    const { status, body } = await present(await workloadToken(platform, { sub: k8s }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    expect(body).not.toHaveProperty('refresh_token');
    const claims = await verifyAsResourceServer(String(body.access_token), resourceA);
    expect(claims).toMatchObject({
      sub: `${platform.trustedIssuer.issuer}#${k8s}`,
      client_id: platform.trustedIssuer.trustedIssuerId,
      aud: resourceA,
    });
    expect(typeof claims.iat).toBe('number');
  });

  it('a subject pattern, audience = the issuer (behaviour WIF-2, WIF-3)', async () => {
    const { status, body } = await present(await workloadToken(platform, { sub: 'repo:acme/tools:ref:refs/heads/main', aud: issuer() }), {
      scope: 'write',
    });
    expect(status).toBe(200);
    expect(body.scope).toBe('write');
    expect(claimsOf(body.access_token).aud).toBe(resourceB);
  });

  it('claims by equality, the requested resource among the rule’s (behaviour WIF-3)', async () => {
    const { status, body } = await present(await workloadToken(platform, { sub: 'spiffe://acme.example/ns/a/sa/b', deployment: 'prod' }), {
      resource: resourceB,
    });
    expect(status).toBe(200);
    expect(claimsOf(body.access_token)).toMatchObject({ aud: resourceB, scope: 'write' });
  });

  it('introspection shows a workload’s token to a resource server that introspects all, and to no other client (behaviour WIF-4, INTRO-2)', async () => {
    const { body } = await present(await workloadToken(platform, { sub: k8s }));
    const resourceServer = await createTokenClient({
      environmentId,
      type: 'confidential',
      grantTypes: ['client_credentials'],
      introspectAll: true,
      redirectUris: [],
    });
    const seen = await introspectWith(resourceServer, String(body.access_token), { resource: resourceA });
    expect(seen.body).toMatchObject({
      active: true,
      sub: `${platform.trustedIssuer.issuer}#${k8s}`,
      client_id: platform.trustedIssuer.trustedIssuerId,
      aud: resourceA,
      scope: 'read',
    });
    const other = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], redirectUris: [] });
    expect((await introspectWith(other, String(body.access_token))).body).toEqual({ active: false });
  });

  describe('each bad input is 400 invalid_grant, nothing written, the reason in the activity row (behaviour JWTB-2)', () => {
    let own: TestTrustedIssuer;
    beforeEach(async () => {
      own = await createTrustedIssuer({ environmentId, profile: 'workload', rules });
    });
    const id = () => own.trustedIssuer.trustedIssuerId;

    it('no matching rule: a claim that differs (behaviour WIF-3)', async () => {
      await expectRefused(
        await present(await workloadToken(own, { sub: 'spiffe://acme.example/x', deployment: 'dev' })),
        id(),
        /no matching workload rule/,
      );
    });
    it('no matching rule: a pattern `*` does not cross `/` (behaviour WIF-3)', async () => {
      await expectRefused(
        await present(await workloadToken(own, { sub: 'repo:acme/a/b:ref:refs/heads/main' })),
        id(),
        /no matching workload rule/,
      );
    });
    it('a scope outside the rule (behaviour WIF-3)', async () => {
      await expectRefused(await present(await workloadToken(own, { sub: k8s }), { scope: 'write' }), id(), /scope outside/);
    });
    it('a resource outside the rule (behaviour WIF-3)', async () => {
      await expectRefused(
        await present(await workloadToken(own, { sub: k8s }), { resource: resourceB }),
        id(),
        /outside the matching rule/,
      );
    });
    it('a wrong aud (behaviour WIF-2)', async () => {
      await expectRefused(await present(await workloadToken(own, { sub: k8s, aud: 'https://elsewhere.example.test' })), id(), /aud/);
    });
    it('an ID-JAG without client authentication (behaviour WIF-1)', async () => {
      await expectRefused(
        await present(await workloadToken(own, { sub: k8s, aud: issuer() }, { typ: 'oauth-id-jag+jwt' })),
        id(),
        /without a client/,
      );
    });
    it('a replayed jti (behaviour JWTB-3)', async () => {
      const token = await workloadToken(own, { sub: k8s });
      expect((await present(token)).status).toBe(200);
      const replay = await present(token);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      expect(await storedFor(id())).toMatchObject({ tokenRecords: 1 });
    });
    it('an id-jag issuer is not a workload issuer (behaviour WIF-1)', async () => {
      const answer = await present(await workloadToken(idp, { sub: k8s }));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_grant');
      expect(await storedFor(idp.trustedIssuer.trustedIssuerId)).toMatchObject({ tokenRecords: 0 });
    });
  });
});
