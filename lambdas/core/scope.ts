import { InvalidScopeError } from './errors';

/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ) */
const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Parses a space-delimited scope parameter; order-preserving, duplicates dropped. */
export function parseScope(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tokens = value.split(' ').filter((t) => t.length > 0);
  for (const token of tokens) {
    if (!scopeToken.test(token)) throw new InvalidScopeError('The scope parameter is malformed.');
  }
  return [...new Set(tokens)];
}

export const formatScope = (scopes: readonly string[]): string => scopes.join(' ');

/** The requested scopes, which must all be within `allowed`; none requested means all allowed. */
export function narrowScopes(requested: readonly string[], allowed: readonly string[], what = 'granted'): string[] {
  if (requested.length === 0) return [...allowed];
  const outside = requested.filter((s) => !allowed.includes(s));
  if (outside.length > 0) {
    throw new InvalidScopeError(`The requested scope exceeds what was ${what}.`, `not ${what}: ${outside.join(' ')}`);
  }
  return [...requested];
}
