import { InvalidTargetError } from './errors';

/**
 * RFC 8707 section 2: a resource indicator is an absolute URI without a fragment.
 * It becomes the token's `aud` verbatim, so it is compared as an exact string.
 */
export function parseResource(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidTargetError('The resource parameter must be an absolute URI.');
  }
  if (value.includes('#') || url.hash) throw new InvalidTargetError('The resource parameter must not contain a fragment.');
  return value;
}

/** Code and refresh grants: `resource` may repeat the bound value, nothing else (RFC 8707 2.2). */
export function confirmResource(requested: string | undefined, bound: string | undefined): string | undefined {
  const parsed = parseResource(requested);
  if (parsed !== undefined && parsed !== bound) {
    throw new InvalidTargetError('The resource does not match the one authorized.', `requested ${parsed}, bound ${bound ?? 'none'}`);
  }
  return bound;
}
