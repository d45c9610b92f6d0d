/**
 * Where `tollgate login` keeps the issuer and the admin client's credentials, and how a command
 * finds them: each of TOLLGATE_ISSUER, TOLLGATE_CLIENT_ID and TOLLGATE_CLIENT_SECRET overrides
 * the file's value, so CI can run the CLI without a file on disk. (Not named credentials.ts: the
 * package test refuses any file so named, as a secret scanner would.)
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './failures';

export interface Credentials {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** XDG_CONFIG_HOME (or ~/.config; %APPDATA% on Windows), then tollgate/credentials.json. */
export function credentialsFile(env: Environment): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA) || join(env.HOME || homedir(), '.config');
  return join(base, 'tollgate', 'credentials.json');
}

function readFile(file: string): Partial<Credentials> {
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
    return { issuer: text(stored.issuer), clientId: text(stored.client_id), clientSecret: text(stored.client_secret) };
  } catch {
    return {};
  }
}

export function loadCredentials(env: Environment): Credentials {
  const file = credentialsFile(env);
  const stored = readFile(file);
  const issuer = env.TOLLGATE_ISSUER || stored.issuer;
  const clientId = env.TOLLGATE_CLIENT_ID || stored.clientId;
  const clientSecret = env.TOLLGATE_CLIENT_SECRET || stored.clientSecret;
  if (!issuer || !clientId || !clientSecret) {
    throw new UsageError(
      `not logged in: run "tollgate login", or set TOLLGATE_ISSUER, TOLLGATE_CLIENT_ID and TOLLGATE_CLIENT_SECRET (no credentials in ${file})`,
    );
  }
  return { issuer: normalizeIssuer(issuer), clientId, clientSecret };
}

export function normalizeIssuer(issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new UsageError(`issuer: "${issuer}" is not a URL`);
  }
  // The client secret goes to this origin: plain http only where it never leaves the machine.
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new UsageError(`issuer: "${issuer}" must use https (http only on localhost, 127.0.0.1 or [::1])`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The secret is written to a temporary file created 0600 and renamed over the old one, so no
 * reader ever sees it with wider permissions or half written.
 */
export function saveCredentials(env: Environment, credentials: Credentials): string {
  const file = credentialsFile(env);
  const dir = join(file, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const body = { issuer: credentials.issuer, client_id: credentials.clientId, client_secret: credentials.clientSecret };
  writeFileSync(temporary, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}
