/**
 * A metadata-document client resolved through the real fetcher against a local HTTP server
 * (local mode, so loopback is reachable): how long it is trusted follows the document's caching
 * headers (behaviour CIMD-5), and a document past a limit (size, time, a redirect, not JSON)
 * makes the client unknown with the reason logged and nothing stored (behaviour CIMD-3, CIMD-4).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { fetchMetadataDocument } from '../../lambdas/adapters/metadata-document-fetcher';
import { resolveMetadataDocumentClient } from '../../lambdas/core/client-metadata-document';
import type { Client } from '../../lambdas/core/model';

let server: Server;
let base: string;
const nowEpoch = Math.floor(Date.now() / 1000);

function document(response: ServerResponse, path: string, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ client_id: `${base}${path}`, redirect_uris: ['http://127.0.0.1/callback'] }));
}

const served: Record<string, (response: ServerResponse, path: string) => void> = {
  '/max-age.json': (r, p) => document(r, p, { 'cache-control': 'public, max-age=3600' }),
  '/expires.json': (r, p) => document(r, p, { expires: new Date((nowEpoch + 7200) * 1000).toUTCString() }),
  '/aged.json': (r, p) => document(r, p, { 'cache-control': 'max-age=3600', age: '600' }),
  '/no-store.json': (r, p) => document(r, p, { 'cache-control': 'no-store' }),
  '/long.json': (r, p) => document(r, p, { 'cache-control': 'max-age=31536000' }),
  '/plain.json': (r, p) => document(r, p),
  '/huge.json': (r) => {
    const body = JSON.stringify({ padding: 'x'.repeat(6 * 1024) });
    r.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    r.end(body);
  },
  '/chunked-huge.json': (r) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    for (let i = 0; i < 8; i++) r.write(`${'x'.repeat(1024)}`);
    r.end();
  },
  '/slow.json': (r, p) => void setTimeout(() => document(r, p), 1500).unref(),
  '/redirect.json': (r) => {
    r.writeHead(302, { location: '/max-age.json' });
    r.end();
  },
  '/html.json': (r) => {
    r.writeHead(200, { 'content-type': 'text/html' });
    r.end('<p>a client</p>');
  },
  '/broken.json': (r) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    r.end('{"client_id": ');
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const serve = served[request.url ?? ''];
    if (serve) return serve(response, request.url!);
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function resolve(path: string) {
  const saved: Client[] = [];
  const warnings: Record<string, unknown>[] = [];
  const client = await resolveMetadataDocumentClient(`${base}${path}`, {
    stored: async () => undefined,
    save: async (c) => void saved.push(c),
    // Local mode (loopback allowed); a short time limit keeps the slow case quick.
    fetch: (url) => fetchMetadataDocument(url, true, 500),
    catalog: async () => [{ name: 'openid', description: '', discoverable: true }],
    environmentId: 'env_dcr',
    nowEpoch,
    log: { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (_m, fields) => void warnings.push(fields ?? {}) },
  });
  return { client, saved, warnings };
}

describe('behaviour CIMD-5: a fetched document is trusted for as long as its caching headers say, within 5 minutes and a day', () => {
  it.each([
    ['Cache-Control max-age', '/max-age.json', 3600],
    ['Expires (no max-age), against the Date the server sent', '/expires.json', 7200],
    ['max-age less the Age a cache in front reported', '/aged.json', 3000],
    ['no-store: the 5-minute floor', '/no-store.json', 300],
    ['a year: the one-day ceiling', '/long.json', 86_400],
    ['no caching headers: the floor', '/plain.json', 300],
  ])('%s', async (_case, path, seconds) => {
    const { client, saved } = await resolve(path);
    expect(client).toBeDefined();
    expect(saved).toHaveLength(1);
    // Expires has one-second resolution, so allow the second it may have been sent in.
    expect(saved[0]!.metadataDocumentRefreshAfterEpoch! - nowEpoch).toBeGreaterThanOrEqual(seconds - 1);
    expect(saved[0]!.metadataDocumentRefreshAfterEpoch! - nowEpoch).toBeLessThanOrEqual(seconds);
  });
});

describe('behaviour CIMD-3, CIMD-4: a document past a limit makes the client unknown, the reason logged, nothing stored', () => {
  it.each([
    ['larger than 5 KiB, by Content-Length', '/huge.json', /larger than allowed/],
    ['larger than 5 KiB, streamed without a length', '/chunked-huge.json', /larger than allowed/],
    ['slower than the time limit', '/slow.json', /timed out/],
    ['a redirect (never followed: draft-ietf-oauth-client-id-metadata-document, 200 only)', '/redirect.json', /HTTP 302/],
    ['not served as JSON', '/html.json', /not served as JSON/],
    ['not valid JSON', '/broken.json', /not valid JSON/],
    ['missing', '/missing.json', /HTTP 404/],
  ])('%s', async (_case, path, reason) => {
    const { client, saved, warnings } = await resolve(path);
    expect(client).toBeUndefined();
    expect(saved).toEqual([]);
    expect(warnings).toEqual([{ clientId: `${base}${path}`, reason: expect.stringMatching(reason) }]);
  });
});
