/**
 * Freshness of a document this server fetches from elsewhere (client metadata documents, a
 * client's or a trusted issuer's JWKS), read from the answer's caching headers as RFC 9111 says.
 */
/** The response header fields that say how long a fetched document stays fresh (RFC 9111 section 4.2). */
export interface CachingHeaders {
  readonly cacheControl?: string;
  readonly expires?: string;
  readonly date?: string;
  readonly age?: string;
}

/** Cache-Control directives by lower-case name; a directive given twice maps to undefined (conflicting). */
function directivesOf(cacheControl: string | undefined): Map<string, string | undefined> {
  const directives = new Map<string, string | undefined>();
  for (const item of (cacheControl ?? '').split(',')) {
    const [rawName, ...rest] = item.split('=');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    const value =
      rest.length > 0
        ? rest
            .join('=')
            .trim()
            .replace(/^"(.*)"$/, '$1')
        : '';
    directives.set(name, directives.has(name) && directives.get(name) !== value ? undefined : value);
  }
  return directives;
}

const deltaSeconds = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;

export interface FreshnessBounds {
  readonly minSeconds: number;
  readonly maxSeconds: number;
  /** For an answer that states no freshness at all (no heuristics here: the caller decides). */
  readonly unstatedSeconds: number;
}

/**
 * How long a fetched document stays fresh: its freshness lifetime by RFC 9111 section 4.2.1
 * (`no-store` or `no-cache`: none; else `max-age`; else `Expires` minus `Date`), less the `Age` a
 * cache in front of it reported (section 4.2.3), kept within `bounds`. An invalid or conflicting
 * value counts as already stale (sections 4.2.1, 5.3). `s-maxage` speaks to shared HTTP caches and
 * `private` to who may store the answer; neither changes what one server-side copy may keep.
 */
export function boundedFreshnessSeconds(headers: CachingHeaders, nowEpoch: number, bounds: FreshnessBounds): number {
  const lifetime = freshnessLifetime(headers, nowEpoch) ?? bounds.unstatedSeconds;
  const remaining = Math.floor(lifetime - (deltaSeconds(headers.age?.trim()) ?? 0));
  return Math.min(bounds.maxSeconds, Math.max(bounds.minSeconds, remaining));
}

/** The stated lifetime; undefined when the answer states none. */
function freshnessLifetime(headers: CachingHeaders, nowEpoch: number): number | undefined {
  const directives = directivesOf(headers.cacheControl);
  if (directives.has('no-store') || directives.has('no-cache')) return 0;
  if (directives.has('max-age')) return deltaSeconds(directives.get('max-age')) ?? 0;
  if (headers.expires === undefined) return undefined;
  const expires = Date.parse(headers.expires) / 1000;
  const sent = headers.date === undefined ? Number.NaN : Date.parse(headers.date) / 1000;
  return Number.isNaN(expires) ? 0 : expires - (Number.isNaN(sent) ? nowEpoch : sent);
}
