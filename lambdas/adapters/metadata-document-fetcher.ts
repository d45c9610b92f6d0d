/**
 * Fetches a client ID metadata document with the guards a server-side fetch of an
 * attacker-chosen URL needs: only public addresses (checked on the address actually
 * connected to, so DNS rebinding cannot slip past), no redirects, a size cap, a time
 * limit. `allowPrivateAddresses` is for the local server only.
 */
import { lookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { metadataDocumentLimits } from '../core/client-metadata-document';

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) privateRanges.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) privateRanges.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class MetadataDocumentFetchError extends Error {
  override name = 'MetadataDocumentFetchError';
}

export interface FetchedDocument {
  readonly body: unknown;
  readonly cacheControl?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookup(hostname, { all: true }, (error, addresses) => {
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
): Promise<FetchedDocument> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
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
        lookup: guardedLookup(allowPrivateAddresses) as never,
        // A fresh connection every time: a pooled one would skip the address check.
        agent: false,
        headers: { accept: 'application/json' },
        timeout: timeoutMs,
      },
      (response) => {
        if (response.statusCode !== 200) return fail(`answered HTTP ${response.statusCode} (redirects are not followed)`);
        if (!/\bjson\b/i.test(response.headers['content-type'] ?? '')) return fail('is not served as JSON');
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > metadataDocumentLimits.maxBytes) return fail('is larger than allowed');
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > metadataDocumentLimits.maxBytes) return fail('is larger than allowed');
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
    request.on('error', (error) => reject(error instanceof MetadataDocumentFetchError ? error : new MetadataDocumentFetchError(error.message)));
  });
}
