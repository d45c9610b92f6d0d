/**
 * The start of an end-to-end test file (test/e2e): the local server on a free port, joined to the
 * run's DynamoDB Local with tables of its own (a fresh prefix, so the seeded admin, settings and
 * lists are this file's alone), its metadata read as a client library reads it (RFC 8414), and an
 * admin API token of the seeded admin client (client_credentials, scope admin).
 */
import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { type LocalApp, startLocalApp } from '../../lambdas/local/app';
import { insecure } from './local-http';

export interface E2eApp {
  readonly app: LocalApp;
  /** The server's metadata as oauth4webapi read it from discovery. */
  readonly as: oauth.AuthorizationServer;
  readonly adminToken: string;
}

export interface E2eAppOptions {
  /** Starts the table prefix, so a table left behind names its file. */
  readonly name: string;
  /** Settings over the defaults: fast Argon2id and the run's LOG_LEVEL. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function startE2eApp(options: E2eAppOptions): Promise<E2eApp> {
  const app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `${options.name}-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL, ...options.env },
  });
  try {
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const { clientId, clientSecret } = app.bootstrap.adminClient;
    const admin = { client_id: clientId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      admin,
      oauth.ClientSecretBasic(clientSecret),
      new URLSearchParams({ scope: 'admin' }),
      insecure,
    );
    const adminToken = (await oauth.processClientCredentialsResponse(as, admin, response)).access_token;
    return { app, as, adminToken };
  } catch (error) {
    // A file whose set-up failed runs no afterAll that knows the server: close it here.
    await app.close();
    throw error;
  }
}
