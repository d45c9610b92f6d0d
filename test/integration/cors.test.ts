/**
 * CORS through the local server, which runs the same handler modules as the Lambda functions:
 * preflight answers from the route table's `crossOrigin` flag, and the headers of the actual
 * responses, which the handlers add themselves (so API Gateway's proxy integration passes them
 * on unchanged). Behaviour HTTP-6..HTTP-8; Fetch standard, CORS protocol.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { routes } from '../../lambdas/routes';

let app: LocalApp;
let dataDir: string;
const origin = 'https://spa.example.test';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'authz-cors-test-'));
  app = await startLocalApp({
    port: 0,
    dataDir,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `cors-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'silent' },
  });
});

afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'x_cors');
const preflight = (path: string, method: string, requestHeaders = 'authorization, content-type') =>
  fetch(`${app.url}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': requestHeaders },
  });

const crossOriginRoutes = routes.filter((r) => r.crossOrigin);
const sameOriginRoutes = routes.filter((r) => !r.crossOrigin);

describe('which routes are cross-origin (behaviour HTTP-6, HTTP-8)', () => {
  test('exactly discovery, the OpenAPI document, registration, token, revocation, userinfo and pushed authorization requests are flagged; no cookie-bearing or admin route is', () => {
    expect(crossOriginRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        'GET /.well-known/oauth-authorization-server',
        'GET /.well-known/openid-configuration',
        'GET /api/userinfo',
        'GET /openapi.json',
        'POST /api/register',
        'POST /api/token',
        'POST /api/token/revoke',
        'POST /api/par',
      ].sort(),
    );
    for (const route of crossOriginRoutes) expect(['none', 'client', 'bearer']).toContain(route.auth);
  });
});

describe('preflight (behaviour HTTP-6)', () => {
  test.each(crossOriginRoutes.map((r) => [r.method, r.path] as const))(
    'OPTIONS %s %s answers 204 with any origin, the method, Authorization and Content-Type, and never credentials',
    async (method, path) => {
      const response = await preflight(path, method);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')?.split(', ')).toContain(method);
      expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, DPoP');
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );

  test.each(sameOriginRoutes.map((r) => [r.method, r.path] as const))(
    'OPTIONS %s %s is refused (405, no CORS headers): cookie-bearing pages and the admin API are never cross-origin (behaviour HTTP-8)',
    async (method, path) => {
      const response = await preflight(concretePath(path), method);
      expect(response.status).toBe(405);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
    },
  );
});

describe('actual responses (behaviour HTTP-7)', () => {
  // Every row, with whatever its handler answers to an unauthenticated, empty request (success
  // or refusal): the handler's own `{ crossOrigin: true }` must agree with its row's flag.
  test.each(routes.map((r) => [r.method, r.path, r.crossOrigin === true] as const))(
    '%s %s carries Access-Control-Allow-Origin: * exactly when its row is flagged (flagged: %s), never Allow-Credentials',
    async (method, path, flagged) => {
      const response = await fetch(`${app.url}${concretePath(path)}`, {
        method,
        headers: { Origin: origin, ...(method === 'GET' || method === 'DELETE' ? {} : { 'Content-Type': 'application/json' }) },
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        redirect: 'manual',
      });
      await response.arrayBuffer();
      expect(response.headers.get('access-control-allow-origin')).toBe(flagged ? '*' : null);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );

  test('a refused bearer request exposes WWW-Authenticate to the page (RFC 6750 3, behaviour HTTP-7)', async () => {
    const response = await fetch(`${app.url}/api/userinfo`, { headers: { Origin: origin, Authorization: 'Bearer not-a-token' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });

  test('a token error answers in the RFC 6749 5.2 shape, readable cross-origin', async () => {
    const response = await fetch(`${app.url}/api/token`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope&client_id=nobody',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toHaveProperty('error');
  });

  test('the JWKS is readable from any origin, as CloudFront serves it (behaviour CLAIM-9)', async () => {
    const response = await fetch(`${app.url}/jwks.json`, { headers: { Origin: origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
