/**
 * The app of someone who installed the packed tarball. test/package/package.test.ts copies
 * this folder next to the installed package, type-checks and compiles it with the
 * tsconfig.json beside it (NodeNext: types found through the package's `exports`) and runs
 * it: `node app.js <outdir> [route rows to bundle, JSON]`. It builds two servers side by side,
 * a stack each (not bundled) and, given route rows, a third in a stack of its own with real bundling,
 * synthesizes them, then verifies a token with the resource-server helper, and prints
 * what it saw as JSON.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Stack } from 'aws-cdk-lib';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { AuthorizationServer, type AuthorizationServerProps, ConfigError } from 'aws-oauth-authorization-server';
import {
  BearerTokenError,
  createAccessTokenVerifier,
  metadataPath,
  protectedResourceMetadata,
} from 'aws-oauth-authorization-server/resource-server';

const [outdir, bundledRoutesFile] = process.argv.slice(2);
// Bundling is chosen per top-level stack: ConsumerBundled only, with the few route rows the file gives.
const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': ['ConsumerBundled'] } });
// A server's API methods take about half of a stack's 500 resources: one server per stack.
const first: AuthorizationServerProps = {
  mailFrom: 'auth@first.example.org',
  signingAlgorithm: 'ES256',
  mfaPolicy: 'everyone',
  adminAllowlist: ['203.0.113.0/24'],
  alarmEmail: 'identity-oncall@first.example.org',
};
const servers = [
  new AuthorizationServer(new Stack(app, 'ConsumerIdentity'), 'First', first),
  new AuthorizationServer(new Stack(app, 'ConsumerIdentitySecond'), 'Second', {
    mailFrom: 'auth@second.example.org',
    apiGatewayCloudWatchRole: false,
    adminOpenToInternet: true,
    alarmsNotifyNobody: true,
  }),
];
if (bundledRoutesFile) {
  const routes: AuthorizationServerProps['routes'] = JSON.parse(readFileSync(bundledRoutesFile, 'utf8'));
  new AuthorizationServer(new Stack(app, 'ConsumerBundled'), 'Server', {
    mailFrom: 'auth@bundled.example.org',
    adminOpenToInternet: true,
    alarmsNotifyNobody: true,
    routes,
  });
}
let invalid: string | undefined;
try {
  new AuthorizationServer(new Stack(new App(), 'Invalid'), 'Server', {
    mailFrom: 'auth@example.org',
    adminOpenToInternet: true,
    alarmEmail: 'ops@example.org',
    mfaPolicy: 'sometimes' as never,
  });
} catch (error) {
  if (error instanceof ConfigError) invalid = error.problems.join('; ');
}
app.synth();

// A stand-in authorization server: a JWKS on loopback and an access token (RFC 9068) signed with its key.
const issuer = 'https://auth.example.org';
const resource = 'https://mcp.example.org/mcp';
const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
const jwksServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
const jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
const token = await new SignJWT({ client_id: 'tgc_consumer', scope: 'mcp:tools' })
  .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
  .setIssuer(issuer)
  .setAudience(resource)
  .setSubject('user-1')
  .setJti('token-1')
  .setIssuedAt()
  .setExpirationTime('5m')
  .sign(privateKey);
const verify = createAccessTokenVerifier({ issuer, jwksUri, resource, requiredScopes: ['mcp:tools'] });
const verified = await verify(`Bearer ${token}`);
let refusal: string | undefined;
try {
  await verify(undefined);
} catch (error) {
  if (error instanceof BearerTokenError) refusal = `${error.status} ${error.code}`;
}
jwksServer.close();

process.stdout.write(
  JSON.stringify({
    servers: servers.map((server) => ({ path: server.node.path, functions: Object.keys(server.functions).length })),
    invalid,
    verified: { client_id: verified.client_id, scopes: verified.scopes },
    refusal,
    metadataPath: metadataPath(resource),
    metadata: protectedResourceMetadata({ resource, authorizationServers: [issuer] }),
  }),
);
