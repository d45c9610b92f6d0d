/**
 * `npm run smoke -- <issuer-url> [--resource <url>]`: the post-deploy smoke check
 * (docs/deployment.md, "Smoke check after a deploy").
 * Run it after `npx cdk deploy` with the `IssuerUrl` output, or against `npm start`'s URL.
 *
 *   SMOKE_CLIENT_ID, SMOKE_CLIENT_SECRET  a confidential client allowed client_credentials
 *                                         (docs/deployment.md, "Smoke check", says how to make one)
 *   --resource <url>                      the audience of the one token it asks for
 *                                         (default https://smoke-check.invalid/)
 *
 * It checks, over HTTP as a client and a resource server would: both discovery documents, the
 * JWKS at `jwks_uri` (CloudFront when deployed), one client_credentials token for the resource,
 * verified with jose against that JWKS, its introspection, health, and three requests the
 * service must refuse. One line per check; exit code 0 when every check passed, 1 when one
 * failed, 2 for a usage error. It changes nothing but that one token (its token record and
 * activity row), and prints neither the client secret nor the token.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import { endpointPaths } from '../lambdas/core/paths';

/**
 * RFC 6761 reserves `.invalid`: no resource server will ever accept a token for it, and this
 * server's own endpoints (userinfo, the admin API) accept only tokens whose audience is the
 * issuer, so the token the check mints is of no use to anyone who might read it.
 */
const defaultResource = 'https://smoke-check.invalid/';
const requestTimeoutMs = 15_000;
const usage = `usage: npm run smoke -- <issuer-url> [--resource <url>]
  environment: SMOKE_CLIENT_ID, SMOKE_CLIENT_SECRET (a confidential client allowed client_credentials)
  --resource   the audience of the token the check asks for (default ${defaultResource})`;

/** A check failed: `message` says what was expected and what came back, never a credential. */
class CheckFailed extends Error {}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: Record<string, unknown> | undefined;
}

async function request(url: string, init: RequestInit = {}): Promise<Reply> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(requestTimeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CheckFailed(`${init.method ?? 'GET'} ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json };
}

/** What an error answer said, in the service's `{ error, error_description }` shape; never its other fields. */
function said(reply: Reply): string {
  const error = typeof reply.json?.error === 'string' ? reply.json.error : undefined;
  const description = typeof reply.json?.error_description === 'string' ? reply.json.error_description.slice(0, 200) : undefined;
  return [`${reply.status}`, error, description && `(${description})`].filter(Boolean).join(' ');
}

function expectJson(reply: Reply, what: string, status = 200): Record<string, unknown> {
  if (reply.status !== status) throw new CheckFailed(`${what}: expected ${status}, got ${said(reply)}`);
  if (!reply.json) throw new CheckFailed(`${what}: the answer is not a JSON object`);
  return reply.json;
}

function basicAuth(clientId: string, secret: string): string {
  // RFC 6749 2.3.1: each part form-urlencoded before base64.
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

function form(fields: Record<string, string>): RequestInit['body'] {
  return new URLSearchParams(fields).toString();
}

const formHeaders = (authorization: string) => ({
  authorization,
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'application/json',
});

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absolute URL string; https unless it names this machine (RFC 8414 2: the issuer is https). */
function endpoint(metadata: Record<string, unknown>, field: string): string {
  const value = metadata[field];
  if (typeof value !== 'string') throw new CheckFailed(`no ${field}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CheckFailed(`${field} is not an absolute URL: ${value}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    throw new CheckFailed(`${field} must be https (got ${value})`);
  }
  return value;
}

interface Discovery {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly introspectionEndpoint: string;
  readonly jwksUri: string;
}

const privateKeyMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

interface Results {
  passed: number;
  failed: number;
}

/** Runs one check and prints its line; a check whose input an earlier failure withheld is skipped (and counted as failed). */
async function check<T>(
  results: Results,
  name: string,
  needs: readonly unknown[],
  run: () => Promise<{ detail: string; value: T }>,
): Promise<T | undefined> {
  if (needs.some((value) => value === undefined)) {
    results.failed += 1;
    process.stdout.write(`SKIP ${name}: not run, an earlier check it needs failed\n`);
    return undefined;
  }
  try {
    const { detail, value } = await run();
    results.passed += 1;
    process.stdout.write(`PASS ${name}: ${detail}\n`);
    return value;
  } catch (error) {
    results.failed += 1;
    const message = error instanceof CheckFailed ? error.message : `unexpected error: ${(error as Error).message}`;
    process.stdout.write(`FAIL ${name}: ${message}\n`);
    return undefined;
  }
}

interface Options {
  readonly issuer: string;
  readonly resource: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

const cliOptions = { resource: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options | string {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof cliOptions; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: cliOptions, allowPositionals: true });
  } catch (error) {
    return (error as Error).message;
  }
  if (parsed.values.help) return '';
  if (parsed.positionals.length !== 1) return 'give the issuer URL, and only it';
  const given = parsed.positionals[0]!;
  try {
    const url = new URL(given);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    if (url.search || url.hash) return `the issuer URL has no query or fragment (got ${given})`;
  } catch {
    return `the issuer URL must be an absolute http(s) URL (got ${given})`;
  }
  const resource = parsed.values.resource ?? defaultResource;
  try {
    new URL(resource);
  } catch {
    return `--resource must be an absolute URL (got ${resource})`;
  }
  const clientId = env.SMOKE_CLIENT_ID;
  const clientSecret = env.SMOKE_CLIENT_SECRET;
  if (!clientId || !clientSecret) return 'set SMOKE_CLIENT_ID and SMOKE_CLIENT_SECRET';
  return { issuer: given.replace(/\/+$/, ''), resource, clientId, clientSecret };
}

async function smoke({ issuer, resource, clientId, clientSecret }: Options): Promise<Results> {
  const results: Results = { passed: 0, failed: 0 };
  process.stdout.write(`Smoke check of ${issuer} with client ${clientId}, resource ${resource}\n`);

  const discovery = await check(results, 'discovery', [], async () => {
    const url = `${issuer}${endpointPaths.authorizationServerMetadata}`;
    const metadata = expectJson(await request(url), url);
    if (metadata.issuer !== issuer) throw new CheckFailed(`issuer is ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
    endpoint(metadata, 'issuer');
    const found: Discovery = {
      issuer,
      tokenEndpoint: endpoint(metadata, 'token_endpoint'),
      introspectionEndpoint: endpoint(metadata, 'introspection_endpoint'),
      jwksUri: endpoint(metadata, 'jwks_uri'),
    };
    for (const field of ['authorization_endpoint', 'revocation_endpoint', 'userinfo_endpoint']) endpoint(metadata, field);
    const grants = metadata.grant_types_supported;
    if (!Array.isArray(grants) || !grants.includes('client_credentials'))
      throw new CheckFailed('client_credentials is not in grant_types_supported');
    return {
      detail: `${endpointPaths.authorizationServerMetadata}: issuer matches, endpoints present, jwks_uri ${found.jwksUri}`,
      value: found,
    };
  });

  await check(results, 'openid-configuration', [discovery], async () => {
    const url = `${issuer}${endpointPaths.openidConfiguration}`;
    const metadata = expectJson(await request(url), url);
    if (metadata.issuer !== issuer) throw new CheckFailed(`issuer is ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
    for (const [field, expected] of [
      ['token_endpoint', discovery!.tokenEndpoint],
      ['introspection_endpoint', discovery!.introspectionEndpoint],
      ['jwks_uri', discovery!.jwksUri],
    ] as const) {
      if (endpoint(metadata, field) !== expected) throw new CheckFailed(`${field} differs from the OAuth metadata's`);
    }
    endpoint(metadata, 'userinfo_endpoint');
    const algs = metadata.id_token_signing_alg_values_supported;
    if (!Array.isArray(algs) || algs.length === 0) throw new CheckFailed('no id_token_signing_alg_values_supported');
    return { detail: `${endpointPaths.openidConfiguration}: issuer matches, same endpoints, ID tokens ${algs.join(' ')}`, value: true };
  });

  const jwks = await check(results, 'jwks', [discovery], async () => {
    const url = discovery!.jwksUri;
    const body = expectJson(await request(url), url);
    const keys = body.keys;
    if (!Array.isArray(keys) || keys.length === 0) throw new CheckFailed(`${url}: no keys`);
    for (const key of keys as Record<string, unknown>[]) {
      if (typeof key.kid !== 'string' || typeof key.kty !== 'string') throw new CheckFailed(`${url}: a key without kid or kty`);
      const secret = privateKeyMembers.filter((member) => member in key);
      if (secret.length > 0) throw new CheckFailed(`${url}: key ${key.kid} publishes private members (${secret.join(', ')})`);
    }
    const listed = (keys as Record<string, unknown>[]).map((key) => `${key.kid} ${key.alg ?? key.kty}`).join(', ');
    return { detail: `${url}: ${keys.length} public key(s): ${listed}`, value: body as unknown as JSONWebKeySet };
  });

  const token = await check(results, 'token', [discovery], async () => {
    const reply = await request(discovery!.tokenEndpoint, {
      method: 'POST',
      headers: formHeaders(basicAuth(clientId, clientSecret)),
      body: form({ grant_type: 'client_credentials', resource }),
    });
    const body = expectJson(reply, `client_credentials at ${discovery!.tokenEndpoint}`);
    const accessToken = body.access_token;
    if (typeof accessToken !== 'string' || accessToken === '') throw new CheckFailed('no access_token in the answer');
    if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') {
      throw new CheckFailed(`token_type is ${JSON.stringify(body.token_type)}, not Bearer`);
    }
    if (typeof body.expires_in !== 'number' || body.expires_in <= 0) throw new CheckFailed('no positive expires_in');
    if ('refresh_token' in body) throw new CheckFailed('a refresh token came with client_credentials (RFC 6749 4.4.3)');
    if (!/no-store/i.test(reply.headers.get('cache-control') ?? ''))
      throw new CheckFailed('the token answer is not Cache-Control: no-store');
    const scope = typeof body.scope === 'string' && body.scope !== '' ? body.scope : '(none)';
    return { detail: `client_credentials for ${resource}: Bearer, expires_in ${body.expires_in} s, scope ${scope}`, value: accessToken };
  });

  const claims = await check(results, 'token-signature', [token, jwks], async () => {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token!);
    } catch {
      throw new CheckFailed('the access token is not a JWS');
    }
    if (!header.kid) throw new CheckFailed('the access token has no kid');
    if (!jwks!.keys.some((key) => key.kid === header.kid)) throw new CheckFailed(`kid ${header.kid} is not in the JWKS`);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token!, createLocalJWKSet(jwks!), {
        issuer,
        audience: resource,
        typ: 'at+jwt',
        requiredClaims: ['exp', 'iat', 'jti'],
      }));
    } catch (error) {
      throw new CheckFailed(`jose refused the token: ${(error as Error).message}`);
    }
    if (payload.client_id !== clientId) throw new CheckFailed(`client_id is ${JSON.stringify(payload.client_id)}, not ${clientId}`);
    const left = payload.exp! - Math.floor(Date.now() / 1000);
    return {
      detail: `verified with jose against the JWKS: kid ${header.kid} ${header.alg}, iss and aud match, expires in ${left} s`,
      value: payload,
    };
  });

  await check(results, 'introspection', [token, claims], async () => {
    const reply = await request(discovery!.introspectionEndpoint, {
      method: 'POST',
      headers: formHeaders(basicAuth(clientId, clientSecret)),
      body: form({ token: token!, resource }),
    });
    const body = expectJson(reply, `introspection at ${discovery!.introspectionEndpoint}`);
    if (body.active !== true) throw new CheckFailed('the token is not active');
    const audiences = Array.isArray(body.aud) ? body.aud : [body.aud];
    const mismatched = [
      body.client_id !== clientId && 'client_id',
      !audiences.includes(resource) && 'aud',
      body.iss !== undefined && body.iss !== issuer && 'iss',
      body.exp !== claims!.exp && 'exp',
      body.jti !== undefined && body.jti !== claims!.jti && 'jti',
    ].filter(Boolean);
    if (mismatched.length > 0) throw new CheckFailed(`active, but ${mismatched.join(', ')} differ from the token's`);
    return { detail: `${discovery!.introspectionEndpoint}: active, client_id, aud and exp match the token`, value: true };
  });

  await check(results, 'health', [], async () => {
    const url = `${issuer}${endpointPaths.health}`;
    const body = expectJson(await request(url), url);
    if (body.status !== 'ok') throw new CheckFailed(`status is ${JSON.stringify(body.status)}, not "ok"`);
    return { detail: `${endpointPaths.health}: 200 ok`, value: true };
  });

  // Three requests the service must refuse, each answered the same by the local server and a
  // deployment, and none of which changes data.
  await check(results, 'refuses-wrong-secret', [discovery], async () => {
    // Client authentication as the token endpoint does it (one function), at introspection:
    // a refused token request would write a failed row to the client's activity log.
    const wrongSecret = randomBytes(32).toString('base64url');
    const reply = await request(discovery!.introspectionEndpoint, {
      method: 'POST',
      headers: formHeaders(basicAuth(clientId, wrongSecret)),
      body: form({ token: 'smoke-check-not-a-token' }),
    });
    if (reply.status !== 401 || reply.json?.error !== 'invalid_client') {
      throw new CheckFailed(`a wrong client secret must get 401 invalid_client, got ${said(reply)}`);
    }
    return { detail: `a wrong client secret at introspection: 401 invalid_client`, value: true };
  });

  await check(results, 'refuses-admin-without-token', [], async () => {
    const url = `${issuer}/api/admin/clients`;
    const reply = await request(url, { headers: { accept: 'application/json' } });
    // 401 from the service; 403 access_denied from the WAF when this address is not in ADMIN_ALLOWED_CIDRS.
    if (reply.status === 401 && reply.json?.error === 'invalid_token') {
      return { detail: 'GET /api/admin/clients without a token: 401 invalid_token', value: true };
    }
    if (reply.status === 403 && reply.json?.error === 'access_denied') {
      return { detail: 'GET /api/admin/clients without a token: 403 access_denied (the WAF admin allowlist)', value: true };
    }
    throw new CheckFailed(`the admin API without a token must get 401 invalid_token (or 403 from the allowlist), got ${said(reply)}`);
  });

  await check(results, 'refuses-unknown-path', [], async () => {
    const path = '/api/smoke-check/no-such-endpoint';
    const reply = await request(`${issuer}${path}`, { headers: { accept: 'application/json' } });
    if (reply.status !== 404 || reply.json?.error !== 'not_found') {
      throw new CheckFailed(`a path outside the route table must get 404 not_found, got ${said(reply)}`);
    }
    return { detail: `GET ${path}: 404 not_found`, value: true };
  });

  return results;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (typeof options === 'string') {
    process.stderr.write(options === '' ? `${usage}\n` : `error: ${options}\n${usage}\n`);
    process.exit(options === '' ? 0 : 2);
  }
  const { passed, failed } = await smoke(options);
  process.stdout.write(failed === 0 ? `All ${passed} checks passed.\n` : `${failed} of ${passed + failed} checks failed.\n`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
});
