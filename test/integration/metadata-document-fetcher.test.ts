import { createServer, type Server } from 'node:http';
import { fetchMetadataDocument, isPublicAddress, MetadataDocumentFetchError } from '../../lambdas/adapters/metadata-document-fetcher';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    switch (request.url) {
      case '/ok':
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
        return response.end(JSON.stringify({ client_id: `${base}/ok` }));
      case '/redirect':
        response.writeHead(302, { location: '/ok' });
        return response.end();
      case '/html':
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<p>hi</p>');
      case '/huge':
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ padding: 'x'.repeat(10_000) }));
      case '/slow':
        setTimeout(() => response.end('{}'), 2000).unref();
        return;
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('client metadata document fetching (SSRF guards)', () => {
  it('fetches a JSON document and reports its Cache-Control (local mode may reach loopback)', async () => {
    expect(await fetchMetadataDocument(`${base}/ok`, true)).toEqual({ body: { client_id: `${base}/ok` }, cacheControl: 'max-age=600' });
  });

  it('refuses loopback and private addresses outside local mode, on the address it would connect to', async () => {
    await expect(fetchMetadataDocument(`${base}/ok`, false)).rejects.toThrow(/non-public address/);
  });

  it('refuses IP-literal hosts that name a private address (Node skips the DNS lookup for them)', async () => {
    const port = new URL(base).port;
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::1]']) {
      await expect(fetchMetadataDocument(`http://${host}:${port}/ok`, false)).rejects.toThrow(/non-public address/);
    }
  });

  it.each([
    ['a redirect (never followed)', '/redirect', /HTTP 302/],
    ['a non-JSON response', '/html', /not served as JSON/],
    ['a document over 5 KiB', '/huge', /larger than allowed/],
    ['a missing document', '/missing', /HTTP 404/],
  ])('refuses %s', async (_case, path, message) => {
    const error = await fetchMetadataDocument(`${base}${path}`, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MetadataDocumentFetchError);
    expect((error as Error).message).toMatch(message);
  });

  it('gives up on a slow server within its time limit', async () => {
    await expect(fetchMetadataDocument(`${base}/slow`, true, 200)).rejects.toThrow(/timed out/);
  });

  it.each([
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.20.0.1', false], ['192.168.1.1', false], ['169.254.169.254', false],
    ['100.64.0.1', false], ['::1', false], ['fd00::1', false], ['fe80::1', false], ['::ffff:127.0.0.1', false],
    ['93.184.216.34', true], ['2606:4700::1111', true], ['not-an-ip', false],
  ])('classifies %s as public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
