/**
 * The JWT-bearer grant over HTTP against the local server, with the trusted issuers' keys served
 * by a jwks_uri (locally, keys may live on loopback http, as metadata documents do): an ID-JAG
 * for a client's user and a workload's token with no client (RFC 7523 2.1, behaviour JWTB-1,
 * IDJAG-1, WIF-1). The inline-key cases and every refusal are in test/handlers/token-jwt-bearer.test.ts.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { createEnvironment, createTokenClient, createTokenUser, createTrustedIssuer } from '../support/fixtures';

const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const resource = 'https://mcp.example.test/mcp';
const now = () => Math.floor(Date.now() / 1000);

let app: LocalApp;
let keys: Server;
let jwksUri: string;
let privateKey: CryptoKey;
const kid = `k-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' }] };
  keys = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    response.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://localhost:${(keys.address() as { port: number }).port}/jwks.json`;
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `jwtb-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'error' },
  });
});

afterAll(async () => {
  keys.closeAllConnections();
  keys.close();
  await app.close();
});

const sign = (claims: Record<string, unknown>, typ: string) =>
  new SignJWT({ jti: randomUUID(), iat: now(), exp: now() + 300, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid, typ })
    .sign(privateKey);

const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });

it('an ID-JAG verified with the keys of its issuer’s jwks_uri gives the client its user’s token (behaviour IDJAG-1)', async () => {
  const environmentId = await createEnvironment();
  const idp = await createTrustedIssuer({ environmentId, profile: 'id-jag', jwksUri });
  const user = await createTokenUser([environmentId]);
  const { client, secret } = await createTokenClient({
    environmentId,
    type: 'confidential',
    grantTypes: [jwtBearer],
    scopes: ['read'],
    redirectUris: [],
  });
  const assertion = await sign(
    { iss: idp.trustedIssuer.issuer, sub: user.id, aud: app.url, client_id: client.clientId, resource, scope: 'read' },
    'oauth-id-jag+jwt',
  );
  const basic = `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`;
  const answer = await token({ grant_type: jwtBearer, assertion }, { authorization: basic });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Record<string, unknown>;
  expect(decodeJwt(String(body.access_token))).toMatchObject({ sub: user.id, aud: resource, client_id: client.clientId, scope: 'read' });
});

it('a workload token verified with the keys of its issuer’s jwks_uri, with no client at all (behaviour WIF-1)', async () => {
  const environmentId = await createEnvironment();
  const platform = await createTrustedIssuer({
    environmentId,
    profile: 'workload',
    jwksUri,
    rules: [{ subject: 'system:serviceaccount:*:indexer', scopes: ['read'], resources: [resource] }],
  });
  const assertion = await sign(
    { iss: platform.trustedIssuer.issuer, sub: 'system:serviceaccount:tools:indexer', aud: `${app.url}/api/token` },
    'JWT',
  );
  const answer = await token({ grant_type: jwtBearer, assertion });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Record<string, unknown>;
  expect(decodeJwt(String(body.access_token))).toMatchObject({
    sub: `${platform.trustedIssuer.issuer}#system:serviceaccount:tools:indexer`,
    client_id: platform.trustedIssuer.trustedIssuerId,
    aud: resource,
  });
  // The same token again is a replay (behaviour JWTB-3).
  const replay = await token({ grant_type: jwtBearer, assertion });
  expect(replay.status).toBe(400);
  expect(((await replay.json()) as Record<string, unknown>).error).toBe('invalid_grant');
});

it('keys that cannot be read are invalid_grant, nothing issued (behaviour JWTB-2)', async () => {
  const environmentId = await createEnvironment();
  // A port nothing listens on: the fetch fails at once.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const unreachable = `http://localhost:${(closed.address() as { port: number }).port}/jwks.json`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const platform = await createTrustedIssuer({
    environmentId,
    profile: 'workload',
    jwksUri: unreachable,
    rules: [{ subject: 'ci', scopes: ['read'], resources: [resource] }],
  });
  const assertion = await sign({ iss: platform.trustedIssuer.issuer, sub: 'ci', aud: app.url }, 'JWT');
  const answer = await token({ grant_type: jwtBearer, assertion });
  expect(answer.status).toBe(400);
  expect(await answer.json()).toEqual({
    error: 'invalid_grant',
    error_description: "The issuer's keys could not be read; try again later.",
  });
});
