/**
 * The MCP TypeScript SDK's own client authorization flow against `npm start` and a small
 * MCP server protected by this project's resource-server helper: RFC 9728 discovery,
 * RFC 8414 discovery, RFC 7591 registration, sign-in and consent in the HTML pages,
 * code + PKCE with the MCP server's URL as RFC 8707 resource, then a tool call.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import type { LocalApp } from '../../lambdas/local/app';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { hiddenField } from '../support/authorization';
import { startE2eApp } from '../support/e2e-app';
import { createUserOverHttp } from '../support/fixtures';
import { InMemoryOAuthProvider } from '../../examples/mcp-server/oauth-provider';
import { startMcpServer, type RunningMcpServer } from '../../examples/mcp-server/server';

let app: LocalApp;
let mcp: RunningMcpServer;
let otherMcp: RunningMcpServer;
let adminToken: string;

/** Plays the browser: sign-in form, then the consent form of a dynamic client; returns the final redirect. */
async function signInAndConsent(authorizationUrl: URL, user: { email: string; password: string }): Promise<URL> {
  const form = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: app.url,
        accept: 'text/html',
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields),
    });
  const page = await fetch(authorizationUrl, { headers: { accept: 'text/html' }, redirect: 'manual' });
  expect(page.status).toBe(200);
  const signIn = await form('/api/authorize', {
    request_id: hiddenField(await page.text(), 'request_id'),
    email: user.email,
    password: user.password,
  });
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  if (signIn.status === 303) return new URL(signIn.headers.get('location')!);
  const consent = await signIn.text();
  expect(consent).toContain('registered itself');
  const approved = await form('/api/authorize/complete', { request_id: hiddenField(consent, 'request_id'), decision: 'approve' }, cookie);
  expect(approved.status).toBe(303);
  return new URL(approved.headers.get('location')!);
}

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({ name: 'mcp' }));
  mcp = await startMcpServer({ issuer: app.url });
  otherMcp = await startMcpServer({ issuer: app.url });
});

afterAll(async () => {
  await Promise.all([mcp.close(), otherMcp.close()]);
  await app.close();
});

describe('MCP client authorization with the MCP TypeScript SDK (behaviour REG-5, CLAIM-2, AUTHZ-8, ENV-1)', () => {
  it('discovers, registers, signs in with consent, gets a token whose aud is the MCP server, and calls a tool', async () => {
    const user = await createUserOverHttp(app.url, adminToken, { name: 'MCP user', environments: [app.bootstrap.environments.dcrId] });
    const provider = new InMemoryOAuthProvider('http://127.0.0.1:33418/callback', 'SDK test client');

    expect(await auth(provider, { serverUrl: mcp.url })).toBe('REDIRECT');
    expect(provider.information?.client_id).toMatch(/^tgc_/);
    const registered = await getClientRepository().get(provider.information!.client_id);
    expect(registered).toMatchObject({ registrationType: 'dynamic', expiresUnused: true });
    expect(provider.information).not.toHaveProperty('client_secret');
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(mcp.url);

    const callback = await signInAndConsent(provider.authorizationUrl!, user);
    expect(callback.searchParams.get('iss')).toBe(app.url);
    expect(await auth(provider, { serverUrl: mcp.url, authorizationCode: callback.searchParams.get('code')! })).toBe('AUTHORIZED');
    expect(decodeJwt(provider.saved!.access_token)).toMatchObject({ aud: mcp.url, sub: user.id, iss: app.url });
    // In use now: it no longer expires (DCR_CLIENT_EXPIRY_DAYS).
    expect((await getClientRepository().get(provider.information!.client_id))?.expiresUnused).toBeUndefined();

    const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: user.id }]);
    await client.close();

    // The same token at another MCP server: minted for another resource, refused (RFC 8707).
    const elsewhere = await fetch(otherMcp.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('behaviour ENV-1: a user without the DCR environment is rejected at authorization although registration succeeded, on a page (RFC 9700 4.11.2)', async () => {
    const outsider = await createUserOverHttp(app.url, adminToken, {
      name: 'MCP user',
      environments: [app.bootstrap.environments.defaultId],
    });
    const provider = new InMemoryOAuthProvider('http://127.0.0.1:33418/callback', 'SDK test client');
    expect(await auth(provider, { serverUrl: mcp.url })).toBe('REDIRECT');
    const page = await fetch(provider.authorizationUrl!, { headers: { accept: 'text/html' }, redirect: 'manual' });
    const signIn = await fetch(`${app.url}/api/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' },
      body: new URLSearchParams({
        request_id: hiddenField(await page.text(), 'request_id'),
        email: outsider.email,
        password: outsider.password,
      }),
    });
    // No redirect to the self-registered client's URI: the user has not approved it.
    expect(signIn.status).toBe(403);
    expect(signIn.headers.get('location')).toBeNull();
    expect(await signIn.text()).toContain('You do not have access to this application.');
  });
});
