/**
 * The admin allowlist inside the service (behaviour EDGE-4): the web ACL lets the self-service key
 * routes through from anywhere, because end users call them; the same routes also take admin
 * callers, who must come from the allowlisted networks like on every other admin path. Their
 * functions get the list (ADMIN_ALLOWED_CIDRS, set by the construct on those rows only) and check
 * an admin caller's source address against it.
 */
import { BlockList, isIP } from 'node:net';

/** The words of the web ACL's 403 for the same refusal (lib/web-acl.ts), so both answers match. */
export const networkRefusalDescription = 'This endpoint is not reachable from your network.';

/** A CIDR (`203.0.113.0/24`, `2001:db8::/32`) as address and prefix, or undefined when it is none. */
function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(cidr.trim());
  if (!match) return undefined;
  const version = isIP(match[1]!);
  const prefix = Number(match[2]);
  if (version === 0 || prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address: match[1]!, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether every entry is a CIDR this module can match (the configuration is refused otherwise). */
export const isCidr = (cidr: string): boolean => parseCidr(cidr) !== undefined;

/**
 * A matcher for the list; an empty list matches every address (no allowlist configured). An
 * address that is not an IP (a local call without a socket address) matches no list.
 */
export function allowlistMatcher(cidrs: readonly string[]): (sourceIp: string | undefined) => boolean {
  if (cidrs.length === 0) return () => true;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new Error(`not a CIDR: ${JSON.stringify(cidr)}`);
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (sourceIp) => {
    const version = sourceIp ? isIP(sourceIp) : 0;
    if (version === 0) return false;
    return list.check(sourceIp!, version === 4 ? 'ipv4' : 'ipv6');
  };
}
