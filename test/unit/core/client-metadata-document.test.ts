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
});

describe('behaviour CIMD-5: how long a fetched document is trusted, per its HTTP caching headers (RFC 9111 4.2)', () => {
  const now = Date.parse('2026-11-22T12:00:00Z') / 1000;
  const at = (seconds: number) => new Date((now + seconds) * 1000).toUTCString();
  it.each([
    ['no caching headers: the floor (no heuristic freshness)', {}, 300],
    ['max-age', { cacheControl: 'max-age=3600' }, 3600],
    ['max-age among other directives, any case', { cacheControl: 'public, Max-Age=7200, must-revalidate' }, 7200],
    ['a quoted max-age', { cacheControl: 'max-age="1800"' }, 1800],
    ['private changes nothing', { cacheControl: 'private, max-age=3600' }, 3600],
    ['s-maxage is for shared HTTP caches, not this record', { cacheControl: 's-maxage=7200' }, 300],
    ['max-age below the floor: the floor', { cacheControl: 'max-age=5' }, 300],
    ['max-age above the ceiling: the ceiling', { cacheControl: 'max-age=9999999' }, 86_400],
    ['no-store: the floor', { cacheControl: 'no-store, max-age=3600' }, 300],
    ['no-cache: the floor', { cacheControl: 'max-age=3600, no-cache' }, 300],
    ['an invalid max-age counts as stale', { cacheControl: 'max-age=soon' }, 300],
    ['two different max-age values count as stale', { cacheControl: 'max-age=3600, max-age=60' }, 300],
    ['Expires minus Date when there is no max-age', { expires: at(5400), date: at(0) }, 5400],
    ['Expires against the origin Date, whatever our clock says', { expires: at(4000), date: at(-2000) }, 6000],
    ['Expires against our clock without a Date', { expires: at(3000) }, 3000],
    ['max-age wins over Expires', { cacheControl: 'max-age=1200', expires: at(7200), date: at(0) }, 1200],
    ['an invalid Expires counts as stale', { expires: '0' }, 300],
    ['an Expires in the past: the floor', { expires: at(-60), date: at(0) }, 300],
    ['Age reported by a cache in front is taken off', { cacheControl: 'max-age=3600', age: '600' }, 3000],
    ['Age off Expires too', { expires: at(3600), date: at(0), age: '1000' }, 2600],
    ['an Age past the lifetime: the floor', { cacheControl: 'max-age=3600', age: '5000' }, 300],
    ['an invalid Age is ignored', { cacheControl: 'max-age=3600', age: '-5' }, 3600],
  ])('%s', (_case, headers, seconds) => {
    expect(cacheSeconds(headers, now)).toBe(seconds);
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
          return { body: document, caching: { cacheControl: 'max-age=600' } };
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
