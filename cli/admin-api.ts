/**
 * The admin API over HTTP: a client_credentials token with the `admin` scope (token endpoint
 * from the issuer's RFC 8414 metadata), then JSON calls. A failure becomes a ServerError carrying
 * the server's `error` and `error_description`, never the credentials sent.
 */
import type { Credentials } from './config-file';
import { ServerError } from './failures';

export type Json = Record<string, unknown>;

async function send(url: string, init: RequestInit): Promise<{ status: number; body: Json; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual' });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new ServerError(0, 'unreachable', `${new URL(url).origin} did not answer (${cause})`);
  }
  const text = await response.text();
  let body: Json = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
  } catch {
    // not JSON (a proxy's or WAF's page): described by its status below
  }
  return { status: response.status, body, text };
}

function failure(status: number, body: Json, url: string): ServerError {
  if (typeof body.error === 'string') {
    return new ServerError(status, body.error, typeof body.error_description === 'string' ? body.error_description : '');
  }
  return new ServerError(status, `http_${status}`, `${new URL(url).pathname} answered ${status} without an OAuth error body`);
}

/** RFC 6749 2.3.1: client_secret_basic form-encodes id and secret before base64. */
function basic(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

export async function adminToken(credentials: Credentials): Promise<string> {
  const metadataUrl = `${credentials.issuer}/.well-known/oauth-authorization-server`;
  const metadata = await send(metadataUrl, { headers: { accept: 'application/json' } });
  if (metadata.status !== 200 || typeof metadata.body.token_endpoint !== 'string') {
    throw new ServerError(metadata.status, 'not_an_issuer', `${metadataUrl} answered ${metadata.status} without a token_endpoint`);
  }
  const tokenUrl = metadata.body.token_endpoint;
  const answer = await send(tokenUrl, {
    method: 'POST',
    headers: {
      authorization: basic(credentials.clientId, credentials.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'admin' }).toString(),
  });
  if (answer.status !== 200 || typeof answer.body.access_token !== 'string') throw failure(answer.status, answer.body, tokenUrl);
  return answer.body.access_token;
}

export interface AdminApi {
  call(method: string, path: string, options?: { query?: Record<string, string | undefined>; body?: Json }): Promise<Json>;
}

export function adminApi(credentials: Credentials): AdminApi {
  let token: Promise<string> | undefined;
  return {
    async call(method, path, options = {}) {
      token ??= adminToken(credentials);
      const url = new URL(`${credentials.issuer}${path}`);
      for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
      const headers: Record<string, string> = { authorization: `Bearer ${await token}`, accept: 'application/json' };
      if (options.body) headers['content-type'] = 'application/json';
      const answer = await send(url.href, { method, headers, body: options.body ? JSON.stringify(options.body) : undefined });
      if (answer.status >= 400 || answer.status < 200) throw failure(answer.status, answer.body, url.href);
      return answer.body;
    },
  };
}
