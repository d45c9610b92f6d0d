import {
  cacheSeconds,
  clientFromMetadataDocument,
  isMetadataDocumentUrl,
  resolveMetadataDocumentClient,
} from '../../../lambdas/core/client-metadata-document';
import { InvalidClientMetadataError } from '../../../lambdas/core/errors';

const catalog = ['openid', 'profile'].map((name) => ({ name, description: '', discoverable: true }));
const url = 'https://app.example.com/oauth/client.json';
const facts = { environmentId: 'env_dcr', fetchedAt: '2026-11-22T00:00:00.000Z' };

describe('client ID metadata documents', () => {
  it.each([
    [url, true],
    ['https://app.example.com/', false],
    ['https://app.example.com', false],
    ['http://app.example.com/client.json', false],
    ['https://app.example.com/client.json#x', false],
    ['https://user:pw@app.example.com/client.json', false],
    ['https://app.example.com/a/../client.json', false],
    ['tgc_abc', false],
    ['https://127.0.0.1/client.json', false],
    ['https://[::ffff:127.0.0.1]/client.json', false],
    ['https://93.184.216.34/client.json', false],
  ])('client_id %s is a metadata document URL: %s', (value, expected) => {
    expect(isMetadataDocumentUrl(value)).toBe(expected);
  });

  it('accepts http on loopback only in local mode', () => {
    expect(isMetadataDocumentUrl('http://localhost:4000/client.json')).toBe(false);
    expect(isMetadataDocumentUrl('http://localhost:4000/client.json', true)).toBe(true);
    expect(isMetadataDocumentUrl('http://example.com/client.json', true)).toBe(false);
  });

  it('turns a valid document into a public dynamic client in the DCR environment', () => {
    const client = clientFromMetadataDocument(
      url,
      { client_id: url, client_name: 'Example MCP', redirect_uris: ['http://127.0.0.1:3000/cb'] },
      catalog,
      facts,
    );
    expect(client).toMatchObject({
      clientId: url,
      name: 'Example MCP',
      type: 'public',
      registrationType: 'dynamic',
      environmentId: 'env_dcr',
    });
  });

  it('keeps dpop_bound_access_tokens of the document (RFC 9449 5.2, behaviour TOKEN-9)', () => {
    const document = { client_id: url, redirect_uris: ['http://127.0.0.1:3000/cb'], dpop_bound_access_tokens: true };
    expect(clientFromMetadataDocument(url, document, catalog, facts).dpopBoundAccessTokens).toBe(true);
    expect(() => clientFromMetadataDocument(url, { ...document, dpop_bound_access_tokens: 1 }, catalog, facts)).toThrow(
      InvalidClientMetadataError,
    );
  });

  it.each([
    ['another client_id', { client_id: 'https://evil.example/client.json', redirect_uris: ['https://a.example/cb'] }],
    ['a client secret', { client_id: url, client_secret: 'x', redirect_uris: ['https://a.example/cb'] }],
    [
      'a confidential auth method',
      { client_id: url, token_endpoint_auth_method: 'client_secret_post', redirect_uris: ['https://a.example/cb'] },
    ],
    ['not an object', ['x']],
  ])('refuses a document with %s', (_case, document) => {
    expect(() => clientFromMetadataDocument(url, document, catalog, facts)).toThrow(InvalidClientMetadataError);
  });

  it('trusts a document for its max-age, within 5 minutes and a day', () => {
    expect(cacheSeconds(undefined)).toBe(300);
    expect(cacheSeconds('public, max-age=3600')).toBe(3600);
    expect(cacheSeconds('max-age=5')).toBe(300);
    expect(cacheSeconds('max-age=9999999')).toBe(86_400);
  });
});

describe('resolving a metadata-document client', () => {
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const document = { client_id: url, redirect_uris: ['https://app.example.com/cb'] };
  const deps = (stored: Awaited<ReturnType<Parameters<typeof resolveMetadataDocumentClient>[1]['stored']>>) => {
    const calls = { fetched: 0, saved: 0 };
    return {
      calls,
      deps: {
        stored: async () => stored,
        save: async () => void calls.saved++,
        fetch: async () => {
          calls.fetched++;
          return { body: document, cacheControl: 'max-age=600' };
        },
        catalog: async () => catalog,
        environmentId: 'env_dcr',
        nowEpoch: 1_000_000,
        log,
      },
    };
  };

  it('fetches, validates and stores an unknown one, trusted for its max-age', async () => {
    const { calls, deps: d } = deps(undefined);
    const client = await resolveMetadataDocumentClient(url, d);
    expect(client).toMatchObject({ clientId: url, metadataDocumentRefreshAfterEpoch: 1_000_600 });
    expect(calls).toEqual({ fetched: 1, saved: 1 });
  });

  it('never fetches a client an admin deleted (blocked)', async () => {
    const { calls, deps: d } = deps('blocked');
    expect(await resolveMetadataDocumentClient(url, d)).toBeUndefined();
    expect(calls.fetched).toBe(0);
  });
});
