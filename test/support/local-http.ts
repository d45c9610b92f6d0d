/**
 * Talking to a running local server over HTTP as its users do: JSON and form calls with a
 * bearer token, a client_credentials token through oauth4webapi, and a user's sign-in
 * through the HTML pages (with consent for a dynamic client), redeemed with PKCE.
 */
import * as oauth from 'oauth4webapi';

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface CallOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly form?: Record<string, string>;
  readonly headers?: Record<string, string>;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // an HTML page: callers read `text`
  }
  return { status: response.status, headers: response.headers, text, json };
}

async function authorizationServer(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
}

export async function clientCredentialsToken(base: string, clientId: string, secret: string, scope: string): Promise<string> {
  const as = await authorizationServer(base);
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    { client_id: clientId },
    oauth.ClientSecretBasic(secret),
    new URLSearchParams({ scope }),
    insecure,
  );
  return (await oauth.processClientCredentialsResponse(as, { client_id: clientId }, response)).access_token;
}

export interface SignInRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly email: string;
  readonly password: string;
  readonly scope?: string;
  readonly resource?: string;
}

/**
 * The authorization code flow with PKCE for a public client: the sign-in form posted as a
 * browser would, the consent form approved when one is shown (dynamic clients), the code
 * redeemed with oauth4webapi. Returns the token response.
 */
export async function signIn(base: string, request: SignInRequest): Promise<oauth.TokenEndpointResponse> {
  const as = await authorizationServer(base);
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: request.scope ?? 'openid email',
    state: 'st',
    ...(request.resource ? { resource: request.resource } : {}),
  }).toString();
  const page = await fetch(url, { headers: { accept: 'text/html' } });
  const html = await page.text();
  const requestId = /name="request_id" value="([^"]*)"/.exec(html)?.[1];
  if (!requestId) throw new Error(`no sign-in form: ${page.status} ${html.slice(0, 300)}`);
  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, accept: 'text/html', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
  const signedIn = await post('/api/authorize', { request_id: requestId, email: request.email, password: request.password });
  let location = signedIn.headers.get('location');
  if (!location && signedIn.status === 200) {
    const consentId = /name="request_id" value="([^"]*)"/.exec(await signedIn.text())?.[1];
    const cookie = signedIn.headers.get('set-cookie')?.split(';')[0];
    location = (await post('/api/authorize/complete', { request_id: consentId ?? '', decision: 'approve' }, cookie)).headers.get(
      'location',
    );
  }
  if (!location) throw new Error(`sign-in did not redirect: ${signedIn.status}`);
  const client = { client_id: request.clientId };
  const params = oauth.validateAuthResponse(as, client, new URL(location), 'st');
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, request.redirectUri, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

/**
 * A JSON admin API caller for one server and token: the parsed body, or an error naming the
 * call and its answer when the status is not 2xx (set-up steps of a test, not its assertions).
 */
export function adminApi(base: () => string, token: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
}

/** A browser against a local server: a cookie jar, same-origin form posts, no redirects followed. */
export class CookieBrowser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: () => string) {}

  async request(method: string, path: string, fields?: Record<string, string>) {
    const origin = this.base();
    const headers: Record<string, string> = { accept: 'text/html', origin, 'sec-fetch-site': 'same-origin' };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (fields) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${origin}${path}`, {
      method,
      headers,
      body: fields ? new URLSearchParams(fields).toString() : undefined,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get('location') ?? undefined, text: await response.text() };
  }
}
