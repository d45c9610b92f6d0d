/**
 * Client authentication at the token, introspection and revocation endpoints
 * (RFC 6749 section 2.3.1): client_secret_basic, client_secret_post, or `none` for
 * public clients, which prove themselves with PKCE instead.
 */
import { InvalidClientError, InvalidRequestError } from './errors';
import type { Client } from './model';
import type { Hasher } from './ports';
import type { VerifiedSecretCache } from './verified-secret-cache';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface PresentedClient {
  readonly clientId: string;
  readonly secret?: string;
  readonly method: ClientAuthMethod;
}

/** Reads the credentials from the Authorization header or the form, never both (RFC 6749 2.3). */
export function presentedClient(authorization: string | undefined, form: Record<string, string | undefined>): PresentedClient {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (authorization && !basic) {
    throw new InvalidClientError('Client authentication failed.', 'unsupported Authorization scheme');
  }
  if (basic) {
    if (form.client_secret !== undefined) {
      throw new InvalidRequestError('Use one client authentication method, not several.');
    }
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClientError('Client authentication failed.', 'malformed Basic credentials');
    try {
      // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
      const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      // The form's bounds: a longer id cannot exist (metadata document URLs stop at 2000).
      if (clientId.length === 0 || clientId.length > 2000 || secret.length > 512) {
        throw new InvalidClientError('Client authentication failed.', 'Basic credentials out of bounds');
      }
      if (form.client_id !== undefined && form.client_id !== clientId) {
        throw new InvalidRequestError('client_id does not match the authenticated client.');
      }
      return { clientId, secret, method: 'client_secret_basic' };
    } catch (error) {
      if (error instanceof InvalidRequestError) throw error;
      throw new InvalidClientError('Client authentication failed.', 'malformed Basic credentials');
    }
  }
  if (!form.client_id) throw new InvalidClientError('Client authentication failed.', 'no client_id');
  if (form.client_secret !== undefined) {
    return { clientId: form.client_id, secret: form.client_secret, method: 'client_secret_post' };
  }
  return { clientId: form.client_id, method: 'none' };
}

export interface ClientAuthDependencies {
  readonly findClient: (clientId: string) => Promise<Client | undefined>;
  readonly hasher: Hasher;
  readonly secretCache: VerifiedSecretCache;
}

/**
 * Confidential clients must present their secret; public clients must not present one.
 * Every failure is the same `invalid_client` (the reason is for the log only).
 */
export async function authenticateClient(presented: PresentedClient, deps: ClientAuthDependencies): Promise<Client> {
  const client = await deps.findClient(presented.clientId);
  const fail = (reason: string) => new InvalidClientError('Client authentication failed.', reason);
  if (!client) {
    if (presented.secret !== undefined) await deps.hasher.verifyDummy(presented.secret);
    throw fail(`unknown client ${presented.clientId}`);
  }
  if (client.type === 'public') {
    if (presented.method !== 'none') throw fail('a public client presented a secret');
    return client;
  }
  if (presented.secret === undefined || !client.secretHash) throw fail('a confidential client presented no secret');
  const credential = `${client.clientId}\u0000${presented.secret}`;
  if (deps.secretCache.has(credential, client.secretHash)) return client;
  if (!(await deps.hasher.verify(client.secretHash, presented.secret))) throw fail('wrong client secret');
  deps.secretCache.remember(credential, client.secretHash);
  return client;
}
