/**
 * POST /api/token error rows of RFC 6749 5.2 not tied to one grant, and the rule for bad
 * input: never a 5xx, the OAuth error shape, `Cache-Control: no-store`, nothing
 * written but the one activity row with the real reason.
 */
import { randomBytes } from 'node:crypto';
import type { Client, User } from '../../lambdas/core/model';
import { headerOf } from '../support/events';
import { activityOf, basic, type FormCall, postToken, storedFor } from '../support/token-calls';
import { createTokenClient, issueCode, redirectUri, type TestClient, setUpTokenFamily } from '../support/fixtures';

let environmentId: string;
let user: User;
let app: Client;
let web: TestClient;

beforeAll(async () => {
  ({ environmentId, user } = await setUpTokenFamily());
});

// Fresh clients per test, so "nothing written" is about this request alone.
beforeEach(async () => {
  app = (await createTokenClient({ environmentId })).client;
  web = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['authorization_code', 'client_credentials'] });
});

interface Row {
  readonly name: string;
  readonly error: string;
  readonly status: number;
  /** Builds the request from a fresh code of `app`. */
  readonly request: (code: { code: string; verifier: string }) => { fields: Record<string, string>; call?: FormCall };
}

const codeFields = (code: { code: string; verifier: string }) => ({
  grant_type: 'authorization_code',
  client_id: app.clientId,
  code: code.code,
  code_verifier: code.verifier,
  redirect_uri: redirectUri,
});
const without = (fields: Record<string, string>, name: string) => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== name));
const json = { 'Content-Type': 'application/json' };

const rows: Row[] = [
  {
    name: 'invalid_request: no grant_type',
    error: 'invalid_request',
    status: 400,
    request: (c) => ({ fields: without(codeFields(c), 'grant_type') }),
  },
  { name: 'invalid_request: no code', error: 'invalid_request', status: 400, request: (c) => ({ fields: without(codeFields(c), 'code') }) },
  {
    name: 'invalid_request: no code_verifier',
    error: 'invalid_request',
    status: 400,
    request: (c) => ({ fields: without(codeFields(c), 'code_verifier') }),
  },
  {
    name: 'invalid_request: a repeated parameter (RFC 6749 3.2)',
    error: 'invalid_request',
    status: 400,
    request: (c) => ({ fields: {}, call: { body: `${new URLSearchParams(codeFields(c)).toString()}&code=${c.code}` } }),
  },
  {
    name: 'invalid_request: two authentication methods, Basic and client_secret (RFC 6749 2.3)',
    error: 'invalid_request',
    status: 400,
    request: (c) => ({
      fields: { ...without(codeFields(c), 'client_id'), client_secret: web.secret! },
      call: { headers: { Authorization: basic(web.client.clientId, web.secret!) } },
    }),
  },
  {
    name: 'invalid_request 415: a JSON body (behaviour TOKEN-1: form-encoded only)',
    error: 'invalid_request',
    status: 415,
    request: (c) => ({ fields: {}, call: { headers: json, body: JSON.stringify(codeFields(c)) } }),
  },
  {
    name: 'invalid_request 413: an oversized body',
    error: 'invalid_request',
    status: 413,
    request: (c) => ({ fields: { ...codeFields(c), padding: 'x'.repeat(70_000) } }),
  },
  {
    name: 'invalid_client: no client authentication at all',
    error: 'invalid_client',
    status: 401,
    request: (c) => ({ fields: without(codeFields(c), 'client_id') }),
  },
  {
    name: 'invalid_client: a public client presenting a secret',
    error: 'invalid_client',
    status: 401,
    request: (c) => ({ fields: { ...codeFields(c), client_secret: 'made-up' } }),
  },
  {
    name: 'invalid_client: an Authorization scheme other than Basic',
    error: 'invalid_client',
    status: 401,
    request: (c) => ({ fields: codeFields(c), call: { headers: { Authorization: 'Bearer abc' } } }),
  },
  {
    name: 'unsupported_grant_type: the password grant (removed in OAuth 2.1)',
    error: 'unsupported_grant_type',
    status: 400,
    request: (c) => ({ fields: { ...codeFields(c), grant_type: 'password', username: 'u', password: 'p' } }),
  },
  {
    name: 'unsupported_grant_type: the device code grant, not offered here',
    error: 'unsupported_grant_type',
    status: 400,
    request: (c) => ({ fields: { ...codeFields(c), grant_type: 'urn:ietf:params:oauth:grant-type:device_code' } }),
  },
  {
    name: 'unauthorized_client: client_credentials for a public client',
    error: 'unauthorized_client',
    status: 400,
    request: () => ({ fields: { grant_type: 'client_credentials', client_id: app.clientId } }),
  },
  {
    name: 'invalid_client: a Basic client_id longer than any client can have (no DynamoDB key error)',
    error: 'invalid_client',
    status: 401,
    request: (c) => ({ fields: codeFields(c), call: { headers: { Authorization: basic('a'.repeat(3000), 'secret') } } }),
  },
  {
    name: 'invalid_scope: a malformed scope (RFC 6749 3.3)',
    error: 'invalid_scope',
    status: 400,
    request: () => ({
      fields: { grant_type: 'client_credentials', scope: 'read "quoted"' },
      call: { headers: { Authorization: basic(web.client.clientId, web.secret!) } },
    }),
  },
];

describe('RFC 6749 5.2: bad token requests', () => {
  it.each(rows)('$name, never a 5xx, nothing written but the activity row', async ({ error, status, request }) => {
    const code = await issueCode(app, user);
    const { fields, call } = request(code);
    const ip = `192.0.2.${randomBytes(4).readUInt32BE()}`;
    const answer = await postToken(fields, { ...call, sourceIp: ip });

    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error, error_description: expect.any(String) });
    expect(headerOf(answer.result, 'cache-control')).toBe('no-store');

    for (const clientId of [app.clientId, web.client.clientId]) {
      expect(await storedFor(clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    }
    const logged = [
      ...(await activityOf(app.clientId)),
      ...(await activityOf(web.client.clientId)),
      ...(await activityOf('unknown')),
    ].filter((r) => r.ip === ip);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ success: false, reason: expect.stringMatching(new RegExp(`^${error}: `)) });
    // The code was not consumed by the bad request: it still redeems.
    expect((await postToken(codeFields(code))).status).toBe(200);
  });
});

describe('secrets stay out of responses and the activity log', () => {
  it('never echoes the code, the verifier or the client secret', async () => {
    const code = await issueCode(app, user);
    const ip = `192.0.2.${randomBytes(4).readUInt32BE()}`;
    const answer = await postToken({ ...codeFields(code), redirect_uri: 'https://evil.example.test/' }, { sourceIp: ip });
    const wrongSecret = await postToken(
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(web.client.clientId, `${web.secret}x`) }, sourceIp: ip },
    );
    const logged = JSON.stringify(
      [...(await activityOf(app.clientId)), ...(await activityOf(web.client.clientId))].filter((r) => r.ip === ip),
    );
    for (const text of [answer.result.body, wrongSecret.result.body, logged]) {
      expect(text).not.toContain(code.code);
      expect(text).not.toContain(code.verifier);
      expect(text).not.toContain(web.secret!);
    }
  });
});
