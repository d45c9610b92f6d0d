/**
 * What an operator reads of a request (behaviour LOG-5..LOG-7): every log line of a request names
 * API Gateway's request id, Lambda's, the route and (once known) the client; each outcome an
 * operator watches is one EMF document (CloudWatch embedded metric format) with its dimensions.
 * The container logs at debug here (LOG_LEVEL=silent elsewhere in the suite; a successful request's
 * closing line is at debug, behaviour LOG-5) and the lines are read
 * from stdout/stderr as CloudWatch would receive them.
 */
import type { Context } from 'aws-lambda';
import { handler as authorizeSignInHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as registerHandler } from '../../lambdas/handlers/register';
import { handler as codeHandler } from '../../lambdas/handlers/sign-in-code';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { handler as tokenHandler } from '../../lambdas/handlers/token';
import { resetContainer } from '../../lambdas/wiring/container';
import { useOutbox } from '../support/api-keys';
import { createClient, createEnvironment, createTokenClient, createUserWithPassword, type TestClient, unique } from '../support/fixtures';
import { latestCode } from '../support/account';
import { authorizeQuery, browserHeaders, form, hiddenField } from '../support/authorization';
import { apiGatewayEvent } from '../support/events';
import { outputLines } from '../support/output-lines';
import { basic, formEvent } from '../support/token-calls';

const outbox = useOutbox();
const saved = { LOG_LEVEL: process.env.LOG_LEVEL, POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED };
let environmentId: string;
let service: TestClient;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'debug';
  delete process.env.POWERTOOLS_METRICS_DISABLED; // as in Lambda (the local server sets it)
  resetContainer();
  environmentId = await createEnvironment();
  service = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetContainer();
});

const lambdaContext = (awsRequestId: string) => ({ awsRequestId, getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

type Line = Record<string, unknown>;
const isEmf = (line: Line) => '_aws' in line;
const logLinesOf = (lines: Line[]) => lines.filter((line) => !isEmf(line));
const emfOf = (lines: Line[]) => lines.filter(isEmf);

/** A token request through the handler with its own API Gateway and Lambda request ids. */
async function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const event = formEvent('/api/token', fields, { headers });
  const lambdaRequestId = unique('lambda-');
  const { result, lines } = await outputLines(() => tokenHandler({ ...event, resource: '/api/token' }, lambdaContext(lambdaRequestId)));
  return { status: result.statusCode, lines, requestId: event.requestContext.requestId, lambdaRequestId };
}

describe('every log line of a request names the request (behaviour LOG-6)', () => {
  it('a refused token request: each line carries both request ids, the route and the client id', async () => {
    const { status, lines, requestId, lambdaRequestId } = await tokenRequest(
      { grant_type: 'client_credentials' },
      { Authorization: basic(service.client.clientId, 'wrong-secret') },
    );
    expect(status).toBe(401);
    const logs = logLinesOf(lines);
    expect(logs.map((line) => line.message)).toEqual(['request refused', 'request']);
    for (const line of logs) {
      expect(line).toMatchObject({ requestId, lambdaRequestId, route: 'POST /api/token', clientId: service.client.clientId });
    }
    expect(logs[1]).toMatchObject({ status: 401, level: 'info' });
    expect(JSON.stringify(lines)).not.toContain('wrong-secret');
  });

  it('no client id is claimed before one is presented', async () => {
    const { lines, requestId } = await tokenRequest({ grant_type: 'password', username: 'u', password: 'p' });
    const logs = logLinesOf(lines);
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) {
      expect(line.requestId).toBe(requestId);
      expect(line).not.toHaveProperty('clientId');
    }
  });

  it('the authorization pages: the client of the request, and later the client of the pending authorization', async () => {
    const client = await createClient({ kind: 'app', environmentId });
    const page = await outputLines(() =>
      authorizeHandler(
        apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: browserHeaders() }),
        lambdaContext('authorize'),
      ),
    );
    expect(page.result.statusCode).toBe(200);
    expect(logLinesOf(page.lines).at(-1)).toMatchObject({ message: 'request', route: 'GET /api/authorize', clientId: client.clientId });

    const signIn = await outputLines(() =>
      authorizeSignInHandler(
        apiGatewayEvent({
          method: 'POST',
          path: '/api/authorize',
          headers: browserHeaders(),
          body: form({ request_id: hiddenField(page.result.body, 'request_id'), email: 'nobody@example.test', password: 'wrong' }),
        }),
        lambdaContext('authorize-sign-in'),
      ),
    );
    const logs = logLinesOf(signIn.lines);
    expect(logs.map((line) => line.message)).toEqual(['sign-in refused', 'request']);
    for (const line of logs) {
      expect(line).toMatchObject({ lambdaRequestId: 'authorize-sign-in', route: 'POST /api/authorize', clientId: client.clientId });
    }
  });

  it('concurrent requests in one process (the local server) keep their own ids on their own lines', async () => {
    const clients = await Promise.all(
      [1, 2, 3].map(() => createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] })),
    );
    const events = clients.map((c) => ({
      ...formEvent('/api/token', { grant_type: 'client_credentials' }, { headers: { Authorization: basic(c.client.clientId, 'wrong') } }),
      resource: '/api/token',
    }));
    const { lines } = await outputLines(() => Promise.all(events.map((event, i) => tokenHandler(event, lambdaContext(`concurrent-${i}`)))));
    const logs = logLinesOf(lines);
    expect(logs).toHaveLength(6);
    for (const line of logs) {
      const i = events.findIndex((event) => event.requestContext.requestId === line.requestId);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(line).toMatchObject({ lambdaRequestId: `concurrent-${i}`, clientId: clients[i]!.client.clientId });
    }
  });
});

describe('EMF metrics: one document per outcome (behaviour LOG-7)', () => {
  it('a token issued: TokenIssued by grant, under the service alone and with the grant, carrying the request’s fields as metadata (behaviour LOG-6)', async () => {
    const { status, lines, requestId, lambdaRequestId } = await tokenRequest(
      { grant_type: 'client_credentials' },
      { Authorization: basic(service.client.clientId, service.secret!) },
    );
    expect(status).toBe(200);
    const docs = emfOf(lines);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: 'Tollgate', Dimensions: [['service'], ['service', 'grant']], Metrics: [{ Name: 'TokenIssued', Unit: 'Count' }] },
        ],
      },
      service: 'authorization-server',
      grant: 'client_credentials',
      TokenIssued: 1,
      // The request’s fields as metadata (not dimensions, which Dimensions above lists in full).
      requestId,
      lambdaRequestId,
      route: 'POST /api/token',
      clientId: service.client.clientId,
    });
  });

  it('POWERTOOLS_METRICS_DISABLED=true (what the local server sets) writes no metric document; the log lines stay', async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    resetContainer();
    try {
      const { status, lines } = await tokenRequest(
        { grant_type: 'client_credentials' },
        { Authorization: basic(service.client.clientId, 'nope') },
      );
      expect(status).toBe(401);
      expect(emfOf(lines)).toEqual([]);
      expect(logLinesOf(lines).length).toBeGreaterThan(0);
    } finally {
      delete process.env.POWERTOOLS_METRICS_DISABLED;
      resetContainer();
    }
  });

  it('a token refused: TokenRefused by grant and OAuth error code (unknown before the grant is known)', async () => {
    const wrongSecret = await tokenRequest({ grant_type: 'client_credentials' }, { Authorization: basic(service.client.clientId, 'nope') });
    expect(emfOf(wrongSecret.lines)).toEqual([
      expect.objectContaining({ TokenRefused: 1, grant: 'client_credentials', error: 'invalid_client' }),
    ]);
    const unsupported = await tokenRequest({ grant_type: 'password' });
    expect(emfOf(unsupported.lines)).toEqual([
      expect.objectContaining({ TokenRefused: 1, grant: 'unknown', error: 'unsupported_grant_type' }),
    ]);
    expect(emfOf(unsupported.lines)[0]!._aws).toMatchObject({
      CloudWatchMetrics: [{ Dimensions: [['service'], ['service', 'grant', 'error']] }],
    });
  });

  it('registrations and the daily cap: ClientRegistered, then RegistrationCapHit once the address is over the cap', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${unique('')}`;
    const register = (body: unknown) =>
      outputLines(() =>
        registerHandler(
          apiGatewayEvent({
            method: 'POST',
            path: '/api/register',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
            sourceIp: ip,
          }),
          lambdaContext(unique('lambda-')),
        ),
      );
    const first = await register({ redirect_uris: ['http://127.0.0.1:33418/callback'] });
    expect(first.result.statusCode).toBe(201);
    const clientId = JSON.parse(first.result.body).client_id as string;
    expect(emfOf(first.lines)).toEqual([expect.objectContaining({ ClientRegistered: 1 })]);
    expect(logLinesOf(first.lines).at(-1)).toMatchObject({ message: 'request', route: 'POST /api/register', clientId });
    let last = first;
    for (let i = 0; i < 10 && last.result.statusCode !== 429; i++) last = await register({ redirect_uris: ['not a uri'] });
    expect(last.result.statusCode).toBe(429);
    expect(emfOf(last.lines)).toEqual([expect.objectContaining({ RegistrationCapHit: 1 })]);
  });

  it('sign-in: SignInFailed by method; a mailed code SignInCodeSent; a wrong code SignInCodeFailed by reason', async () => {
    const post = (handler: typeof signInHandler, path: string, fields: Record<string, string>) =>
      outputLines(() =>
        handler(apiGatewayEvent({ method: 'POST', path, headers: browserHeaders(), body: form(fields) }), lambdaContext('x')),
      );
    // MFA_POLICY defaults to admins: an admin's correct password leads to a mailed code.
    const admin = await createUserWithPassword({ admin: true, environments: [environmentId] });
    const refused = await post(signInHandler, '/api/auth/signin', { email: admin.user.email!, password: 'not it' });
    expect(refused.result.statusCode).toBe(401);
    expect(emfOf(refused.lines)).toEqual([expect.objectContaining({ SignInFailed: 1, method: 'password' })]);

    const codePage = await post(signInHandler, '/api/auth/signin', { email: admin.user.email!, password: admin.password });
    expect(emfOf(codePage.lines)).toEqual([expect.objectContaining({ SignInCodeSent: 1 })]);
    const right = latestCode(outbox, admin.user.email!);
    const wrongCode = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await post(codeHandler, '/api/auth/otp', {
      challenge_id: hiddenField(codePage.result.body, 'challenge_id'),
      code: wrongCode,
    });
    expect(wrong.result.statusCode).toBe(400);
    expect(emfOf(wrong.lines)).toEqual([expect.objectContaining({ SignInCodeFailed: 1, reason: 'wrong' })]);
  });
});
