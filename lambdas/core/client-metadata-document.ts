/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, preferred
 * by the MCP authorization specification): the client_id is an https URL, and the JSON
 * document at that URL is the client's metadata. Such clients are public and are treated
 * like dynamically registered ones (DCR environment, consent screen).
 */
import { InvalidClientMetadataError } from './errors';
import { boundedFreshnessSeconds, type CachingHeaders } from './http-freshness';
import type { Client } from './model';
import type { Logger, ScopeDefinition } from './ports';
import { dynamicClient, validateRegistration } from './registration';

export const metadataDocumentLimits = {
  /** The draft suggests 5 KB; a client's metadata is far smaller. */
  maxBytes: 5 * 1024,
  timeoutMs: 3000,
  /** How long a fetched document is trusted before it is fetched again, whatever its headers say (behaviour CIMD-5). */
  minCacheSeconds: 300,
  maxCacheSeconds: 24 * 3600,
} as const;

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether `clientId` is a metadata document URL (draft section 3): https, a path, no
 * fragment, no credentials, no dot segments. `allowLoopbackHttp` is for the local server.
 */
export function isMetadataDocumentUrl(clientId: string, allowLoopbackHttp = false): boolean {
  if (clientId.length > 2000 || !/^https?:\/\//i.test(clientId)) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const httpAllowed = allowLoopbackHttp && url.protocol === 'http:' && loopbackHosts.has(url.hostname);
  if (url.protocol !== 'https:' && !httpAllowed) return false;
  // A client is named by a domain: IP literals would also skip the fetcher's DNS-time address check.
  if (!httpAllowed && (/^\[.*\]$/.test(url.hostname) || /^\d+\.\d+\.\d+\.\d+$/.test(url.hostname))) return false;
  if (url.hash || clientId.includes('#') || url.username || url.password) return false;
  if (url.pathname === '/' || /\/\.\.?(\/|$)/.test(clientId.replace(/^[a-z]+:\/\/[^/]+/i, ''))) return false;
  return true;
}

export type { CachingHeaders };

export interface MetadataDocumentClientFacts {
  readonly environmentId: string;
  readonly fetchedAt: string;
}

/** Validates a fetched document and turns it into a client record (public, PKCE only). */
export function clientFromMetadataDocument(
  url: string,
  document: unknown,
  catalog: readonly ScopeDefinition[],
  facts: MetadataDocumentClientFacts,
): Client {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new InvalidClientMetadataError('The client metadata document is not a JSON object.');
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) {
    throw new InvalidClientMetadataError('The client metadata document must name its own URL as client_id.');
  }
  if (Object.keys(fields).some((name) => name.startsWith('client_secret'))) {
    throw new InvalidClientMetadataError('A client metadata document must not carry a client secret.');
  }
  const { client_id: _ignored, ...metadata } = fields;
  const registration = validateRegistration(metadata, catalog);
  const client = dynamicClient(registration, { clientId: url, environmentId: facts.environmentId, createdAt: facts.fetchedAt });
  return { ...client, name: registration.clientName ?? new URL(url).host };
}

/**
 * How long a fetched document is trusted (behaviour CIMD-5): its freshness by RFC 9111
 * (http-freshness.ts), kept within the bounds: the floor spares the server a fetch per request,
 * the ceiling bounds how long a changed or withdrawn document goes unnoticed. A document that
 * says nothing gets the floor.
 */
export function cacheSeconds(headers: CachingHeaders, nowEpoch: number): number {
  return boundedFreshnessSeconds(headers, nowEpoch, {
    minSeconds: metadataDocumentLimits.minCacheSeconds,
    maxSeconds: metadataDocumentLimits.maxCacheSeconds,
    unstatedSeconds: 0,
  });
}

export interface MetadataDocumentResolution {
  /** 'blocked': an admin deleted the client; the document must not bring it back. */
  readonly stored: (url: string) => Promise<Client | 'blocked' | undefined>;
  readonly save: (client: Client) => Promise<void>;
  readonly fetch: (url: string) => Promise<{ body: unknown; caching: CachingHeaders }>;
  readonly catalog: () => Promise<readonly ScopeDefinition[]>;
  readonly environmentId: string;
  readonly nowEpoch: number;
  readonly log: Logger;
}

/**
 * The client a metadata document URL names: the stored copy while it is fresh, else the
 * document fetched again and validated. A document that cannot be fetched or is invalid
 * makes the client unknown (the caller's ordinary "unknown client" answer); the reason
 * is logged, never shown.
 */
export async function resolveMetadataDocumentClient(url: string, deps: MetadataDocumentResolution): Promise<Client | undefined> {
  const stored = await deps.stored(url);
  if (stored === 'blocked') return undefined;
  if (stored && (stored.metadataDocumentRefreshAfterEpoch ?? 0) > deps.nowEpoch) return stored;
  let fresh: Client;
  try {
    const fetched = await deps.fetch(url);
    const client = clientFromMetadataDocument(url, fetched.body, await deps.catalog(), {
      environmentId: deps.environmentId,
      fetchedAt: new Date(deps.nowEpoch * 1000).toISOString(),
    });
    fresh = {
      ...client,
      createdAt: stored?.createdAt ?? client.createdAt,
      metadataDocumentRefreshAfterEpoch: deps.nowEpoch + cacheSeconds(fetched.caching, deps.nowEpoch),
    };
  } catch (error) {
    deps.log.warn('client metadata document rejected', { clientId: url, reason: (error as Error).message });
    return undefined;
  }
  // Outside the catch: failing to store is our fault (a 500), not an unknown client.
  await deps.save(fresh);
  return fresh;
}
