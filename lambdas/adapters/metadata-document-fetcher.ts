/**
 * Fetches a client ID metadata document with the guards a server-side fetch of an
 * attacker-chosen URL needs: only public addresses (checked on the address actually
 * connected to, so DNS rebinding cannot slip past), no redirects, a size cap, a time
 * limit. `allowPrivateAddresses` is for the local server only.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { metadataDocumentLimits } from '../core/client-metadata-document';

/** IPv6 global unicast (RFC 4291 2.4, IANA): the only IPv6 block a public host can be in. */
const ipv6GlobalUnicast = ipaddr.parseCIDR('2000::/3');

/**
 * An allow-list: true only for a public unicast address. ipaddr.js (maintained, with IANA's
 * special-purpose registries) names every special range; an address in any of them is
 * refused, which covers private, loopback, link-local (cloud metadata at 169.254.169.254),
 * unique-local (fd00:ec2::254), CGNAT, documentation, multicast, and the IPv6 forms that
 * carry an IPv4 address (6to4, Teredo, NAT64). IPv6 outside 2000::/3 is refused too, which
 * takes in the deprecated IPv4-compatible form (::127.0.0.1) and whatever IANA assigns later.
 * An IPv4-mapped address (::ffff:a.b.c.d) is judged as the IPv4 address it connects to.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(ipv6GlobalUnicast);
}

export class MetadataDocumentFetchError extends Error {
  override name = 'MetadataDocumentFetchError';
}

export interface FetchedDocument {
  readonly body: unknown;
  readonly cacheControl?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Every address a host name resolves to; the system resolver unless a test injects answers. */
export type HostLookup = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/*
 * node:dns, node:http and node:https are fetched on use (process.getBuiltinModule), not imported:
 * this module is loaded lazily, but esbuild hoists a bundled module's imports of Node built-ins to
 * the top of the bundle, and on Node 24 (Lambda's runtime) node:http is costly to import (bench/README.md).
 */
const systemLookup: HostLookup = (hostname, callback) => process.getBuiltinModule('node:dns').lookup(hostname, { all: true }, callback);

function guardedLookup(allowPrivate: boolean, lookupHost: HostLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookupHost(hostname, (error, addresses) => {
      if (error) return callback(error, '');
      const usable = addresses.filter((a) => allowPrivate || isPublicAddress(a.address));
      if (usable.length === 0 || usable.length !== addresses.length) {
        return callback(new MetadataDocumentFetchError(`${hostname} resolves to a non-public address`), '');
      }
      if (options.all) return callback(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export function fetchMetadataDocument(
  url: string,
  allowPrivateAddresses = false,
  timeoutMs: number = metadataDocumentLimits.timeoutMs,
  lookupHost: HostLookup = systemLookup,
  maxBytes: number = metadataDocumentLimits.maxBytes,
): Promise<FetchedDocument> {
  const target = new URL(url);
  const client = process.getBuiltinModule(target.protocol === 'https:' ? 'node:https' : 'node:http');
  // Node does not call `lookup` for an IP-literal host, so check the literal itself.
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) && !allowPrivateAddresses && !isPublicAddress(literal)) {
    return Promise.reject(new MetadataDocumentFetchError(`${target.hostname} is a non-public address`));
  }
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      request.destroy();
      reject(new MetadataDocumentFetchError(message));
    };
    const request = client.get(
      target,
      {
        lookup: guardedLookup(allowPrivateAddresses, lookupHost) as never,
        // A fresh connection every time: a pooled one would skip the address check.
        agent: false,
        headers: { accept: 'application/json' },
        timeout: timeoutMs,
      },
      (response) => {
        if (response.statusCode !== 200) return fail(`answered HTTP ${response.statusCode} (redirects are not followed)`);
        if (!/\bjson\b/i.test(response.headers['content-type'] ?? '')) return fail('is not served as JSON');
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > maxBytes) return fail('is larger than allowed');
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail('is larger than allowed');
          chunks.push(chunk);
        });
        response.on('end', () => {
          try {
            resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), cacheControl: response.headers['cache-control'] });
          } catch {
            reject(new MetadataDocumentFetchError('is not valid JSON'));
          }
        });
        response.on('error', (error) => reject(new MetadataDocumentFetchError(error.message)));
      },
    );
    const overall = setTimeout(() => fail('timed out'), timeoutMs);
    request.on('close', () => clearTimeout(overall));
    request.on('timeout', () => fail('timed out'));
    request.on('error', (error) =>
      reject(error instanceof MetadataDocumentFetchError ? error : new MetadataDocumentFetchError(error.message)),
    );
  });
}
