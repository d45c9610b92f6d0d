/**
 * Client ID Metadata Documents beside DCR (on by default, behaviour CIMD-1): the
 * client_id is the document's URL; the server fetches and validates it on first use,
 * places the client in the DCR environment and shows the consent screen, like a
 * dynamically registered client. Locally, documents may live on loopback http.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { hiddenField, pkcePair } from '../support/authorization';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { getClientRepository } from '../../lambdas/wiring/repositories';

/** Behaviour CIMD-3: answers past the fetch limits (too large, a redirect, not JSON). */
function servedPastALimit(path: string, response: ServerResponse): boolean {
  if (path === '/huge/client.json') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ padding: 'x'.repeat(6 * 1024) }));
  } else if (path === '/redirect/client.json') {
    response.writeHead(301, { location: '/good/client.json' });
    response.end();
  } else if (path === '/html/client.json') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<p>not a document</p>');
  } else return false;
  return true;
}

let app: LocalApp;
let documents: Server;
let documentBase: string;
const redirectUri = 'http://127.0.0.1:45001/callback';

beforeAll(async () => {
  documents = createServer((request, response) => {
    const url = `${documentBase}${request.url}`;
    if (servedPastALimit(request.url!, response)) return;
    const body =
      request.url === '/good/client.json'
        ? {
            client_id: url,
            client_name: 'Metadata Doc Client',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'none',
          }
        : request.url === '/portless/client.json'
          ? { client_id: url, client_name: 'Native app', redirect_uris: ['http://127.0.0.1/callback'] }
          : { client_id: 'https://someone-else.example/client.json', redirect_uris: [redirectUri] };
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentBase = `http://localhost:${(documents.address() as { port: number }).port}`;
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `cimd-${randomUUID().slice(0, 8)}-`,
    // These sign in the seeded admin to test authorization itself; the mailed code is tested in
    // test/handlers/sign-in-code.test.ts and test/browser/account.test.ts.
    // No CLIENT_ID_METADATA_DOCUMENTS: they are on by default (behaviour CIMD-1).
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'error' },
  });
});

afterAll(async () => {
  documents.closeAllConnections();
  documents.close();
  await app.close();
});

const authorizeUrl = (clientId: string, challenge: string, redirect = redirectUri) =>
  `${app.url}/api/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid',
    state: 's1',
  })}`;

describe('Client ID Metadata Documents', () => {
  it('behaviour CIMD-1: discovery advertises client_id_metadata_document_supported on a default start', async () => {
    const metadata = (await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it.each([
    ['the document as registered', '/good/client.json', redirectUri],
    [
      'a loopback redirect URI on the port the app listens on (behaviour AUTHZ-13, RFC 8252 7.3)',
      '/portless/client.json',
      'http://127.0.0.1:51999/callback',
    ],
  ])(
    'fetches the document on first use, shows the dynamic-client consent, and issues tokens to the URL client_id: %s',
    async (_case, path, redirect) => {
      const clientId = `${documentBase}${path}`;
      const { verifier, challenge } = pkcePair();
      const page = await fetch(authorizeUrl(clientId, challenge, redirect), { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const { email, password } = app.bootstrap.admin;
      const form = { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' };
      const signIn = await fetch(`${app.url}/api/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: form,
        body: new URLSearchParams({ request_id: hiddenField(await page.text(), 'request_id'), email, password }),
      });
      const consent = await signIn.text();
      expect(consent).toContain(path === '/good/client.json' ? 'Metadata Doc Client' : 'Native app');
      expect(consent).toContain('registered itself');
      const approved = await fetch(`${app.url}/api/authorize/complete`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...form, cookie: signIn.headers.get('set-cookie')!.split(';')[0]! },
        body: new URLSearchParams({ request_id: hiddenField(consent, 'request_id'), decision: 'approve' }),
      });
      const location = new URL(approved.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(redirect);
      const code = location.searchParams.get('code')!;
      const token = await fetch(`${app.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          code_verifier: verifier,
          redirect_uri: redirect,
        }),
      });
      expect(token.status).toBe(200);
      const stored = await getClientRepository().get(clientId);
      expect(stored).toMatchObject({ type: 'public', registrationType: 'dynamic', environmentId: app.bootstrap.environments.dcrId });
      expect(stored!.metadataDocumentRefreshAfterEpoch).toBeGreaterThan(Math.floor(Date.now() / 1000) + 500);
    },
  );

  it.each(['/huge/client.json', '/redirect/client.json', '/html/client.json'])(
    'behaviour CIMD-3: a document past a fetch limit (%s) is an unknown client: error page, invalid_client at the token endpoint, nothing stored',
    async (path) => {
      const clientId = `${documentBase}${path}`;
      const response = await fetch(authorizeUrl(clientId, pkcePair().challenge), { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('The client is unknown.');
      const token = await fetch(`${app.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          code: 'x',
          code_verifier: 'y'.repeat(43),
          redirect_uri: redirectUri,
        }),
      });
      expect(token.status).toBe(401);
      expect(await token.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      expect(await getClientRepository().getMetadataDocumentClient(clientId)).toBeUndefined();
    },
  );

  it('treats a document naming another client_id as an unknown client: error page, never a redirect', async () => {
    const response = await fetch(authorizeUrl(`${documentBase}/bad/client.json`, pkcePair().challenge), {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('deleting a metadata-document client', () => {
  it('blocks it: the document, still served, does not bring it back', async () => {
    const clientId = `${documentBase}/good/client.json`;
    const first = await fetch(authorizeUrl(clientId, pkcePair().challenge), { headers: { accept: 'text/html' } });
    expect(first.status).toBe(200);
    const { clientId: adminId, clientSecret } = app.bootstrap.adminClient;
    const token = await fetch(`${app.url}/api/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${adminId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=admin',
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const deleted = await fetch(`${app.url}/api/admin/clients/${encodeURIComponent(clientId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(deleted.status).toBe(204);
    // The 30-second client cache of this process is the only delay; read the store directly.
    expect(await getClientRepository().getMetadataDocumentClient(clientId)).toBe('blocked');
    expect(await getClientRepository().get(clientId)).toBeUndefined();
  });
});
