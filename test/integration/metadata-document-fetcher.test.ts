import { createServer, type Server } from 'node:http';
import { isIP } from 'node:net';
import {
  fetchMetadataDocument,
  isPublicAddress,
  MetadataDocumentFetchError,
  type HostLookup,
} from '../../lambdas/adapters/metadata-document-fetcher';

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
  it('fetches a JSON document and reports its caching headers (local mode may reach loopback)', async () => {
    expect(await fetchMetadataDocument(`${base}/ok`, true)).toEqual({
      body: { client_id: `${base}/ok` },
      caching: { cacheControl: 'max-age=600', date: expect.any(String) },
    });
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

  // Behaviour CIMD-3: a Client ID Metadata Document URL is chosen by the client, so the fetch must reach
  // only public unicast addresses (an allow-list: anything not known public is refused).
  const nonPublic: readonly (readonly [string, string])[] = [
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, not the first address', '127.53.0.9'],
    ['IPv4 this-network', '0.0.0.0'],
    ['IPv4 private 10/8', '10.1.2.3'],
    ['IPv4 private 172.16/12', '172.20.0.1'],
    ['IPv4 private 192.168/16', '192.168.1.1'],
    ['IPv4 link-local', '169.254.10.20'],
    ['IPv4 cloud metadata (EC2, ECS, Lambda)', '169.254.169.254'],
    ['IPv4 carrier-grade NAT', '100.64.0.1'],
    ['IPv4 documentation', '203.0.113.7'],
    ['IPv4 benchmarking', '198.18.0.1'],
    ['IPv4 multicast', '224.0.0.1'],
    ['IPv4 reserved', '240.0.0.1'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv6 unspecified', '::'],
    ['IPv6 loopback', '::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 unique-local', 'fd00::1'],
    ['IPv6 cloud metadata (EC2 IMDS over IPv6)', 'fd00:ec2::254'],
    ['IPv6 site-local (deprecated)', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped cloud metadata', '::ffff:169.254.169.254'],
    ['IPv4-compatible loopback (deprecated form)', '::127.0.0.1'],
    ['6to4 of 127.0.0.1', '2002:7f00:1::'],
    ['6to4 of 10.0.0.1', '2002:a00:1::1'],
    ['Teredo', '2001::1'],
    ['NAT64 of 127.0.0.1', '64:ff9b::7f00:1'],
    ['IPv6 discard-only', '100::1'],
    ['not an IP address', 'not-an-ip'],
  ];
  const publicUnicast: readonly (readonly [string, string])[] = [
    ['IPv4 public', '93.184.216.34'],
    ['IPv4 public, next to CGNAT', '100.128.0.1'],
    ['IPv6 global unicast', '2606:4700::1111'],
    ['IPv6 global unicast', '2a00:1450:4001:82a::200e'],
    ['IPv4-mapped public IPv4 (the socket connects over IPv4)', '::ffff:93.184.216.34'],
  ];

  it.each(nonPublic)('classifies %s (%s) as not public', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(publicUnicast)('classifies %s (%s) as public', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(nonPublic.filter(([, address]) => isIP(address) !== 0))(
    'refuses a host whose DNS answer is %s (%s), before connecting',
    async (_kind, address) => {
      const asked: string[] = [];
      const answer: HostLookup = (hostname, callback) => {
        asked.push(hostname);
        callback(null, [{ address, family: isIP(address) }]);
      };
      await expect(fetchMetadataDocument(`${base.replace('localhost', 'cimd.example.test')}/ok`, false, 2000, answer)).rejects.toThrow(
        /resolves to a non-public address/,
      );
      expect(asked).toEqual(['cimd.example.test']);
    },
  );

  it('refuses a host when any of its DNS answers is not public (the socket may try each)', async () => {
    const answer: HostLookup = (_hostname, callback) =>
      callback(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '2002:7f00:1::', family: 6 },
      ]);
    await expect(fetchMetadataDocument('http://cimd.example.test/client.json', false, 2000, answer)).rejects.toThrow(/non-public address/);
  });

  it('connects to the address the DNS answer named (local mode, where loopback is allowed)', async () => {
    const answer: HostLookup = (_hostname, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const port = new URL(base).port;
    const fetched = await fetchMetadataDocument(`http://cimd.example.test:${port}/ok`, true, 2000, answer);
    expect(fetched.body).toEqual({ client_id: `${base}/ok` });
  });

  it.each(['[2002:7f00:1::]', '[::127.0.0.1]', '[2001::1]', '[fd00:ec2::254]', '169.254.169.254', '[::ffff:a9fe:a9fe]', '100.64.0.1'])(
    'refuses the IP-literal host %s',
    async (host) => {
      await expect(fetchMetadataDocument(`http://${host}/client.json`, false, 2000)).rejects.toThrow(/non-public address/);
    },
  );
});
