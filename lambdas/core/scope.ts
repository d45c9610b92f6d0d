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

/** The scope an admin client's or admin user's token needs for /api/admin/* (lambdas/http/admin-auth.ts). */
export const adminScope = 'admin';

/**
 * Scopes this server itself gives a meaning to, each with where: they stay in the catalog
 * (deleting one is refused, behaviour ADMIN-18) because the code keeps acting on the name
 * whether or not the catalog lists it. The one list of them; the seed creates all four.
 */
export const serverDefinedScopes: Readonly<Record<string, string>> = {
  openid: 'it asks for an ID token and opens userinfo (OpenID Connect Core 3.1.2.1)',
  profile: "it releases the user's name (OpenID Connect Core 5.4)",
  email: "it releases the user's email address (OpenID Connect Core 5.4)",
  [adminScope]: 'it opens the admin API',
};

/** Which of the names asked about the scope catalog holds now (lambdas/core/cache.ts `catalogNames`). */
export type CatalogNames = (names: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * The client as issuance sees it: only the scopes the catalog still holds, and the
 * server-defined ones, which the code gives a meaning whatever the catalog says (behaviour
 * ADMIN-18). A client record can still name a deleted scope (a grant the deletion's holder
 * check missed, or one made by a registration from a container's catalog a minute old); no
 * token, code or key carries it.
 */
export async function withCatalogScopes<C extends { readonly scopes: readonly string[] }>(client: C, catalog: CatalogNames): Promise<C> {
  const asked = client.scopes.filter((scope) => !Object.hasOwn(serverDefinedScopes, scope));
  if (asked.length === 0) return client;
  const known = await catalog(asked);
  if (asked.every((scope) => known.has(scope))) return client;
  return { ...client, scopes: client.scopes.filter((scope) => Object.hasOwn(serverDefinedScopes, scope) || known.has(scope)) };
}
