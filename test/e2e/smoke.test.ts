/**
 * The post-deploy smoke check (`npm run smoke`, bin/smoke.ts) run as a user runs it after
 * `cdk deploy` (docs/deployment.md, "Smoke check"), here against the local server: a smoke
 * client made through the admin API, the check in a process of its own. It passes with the
 * right secret, fails naming the check with a wrong one, prints neither the secret nor the
 * token, and leaves nothing behind but the one token's activity row.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { LocalApp } from '../../lambdas/local/app';
import { startE2eApp } from '../support/e2e-app';
import { adminApi } from '../support/local-http';

const root = join(__dirname, '..', '..');
const checkNames = [
  'discovery',
  'openid-configuration',
  'jwks',
  'token',
  'token-signature',
  'introspection',
  'health',
  'refuses-wrong-secret',
  'refuses-admin-without-token',
  'refuses-unknown-path',
];

let app: LocalApp;
let adminToken: string;
let smokeClient: { id: string; secret: string };
const admin = adminApi(
  () => app.url,
  () => adminToken,
);

interface SmokeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run smoke -- <args>` with the given client, as the docs tell a user to run it. */
function smoke(args: string[], client?: { id: string; secret: string }): Promise<SmokeRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SMOKE_CLIENT_ID;
  delete env.SMOKE_CLIENT_SECRET;
  if (client) Object.assign(env, { SMOKE_CLIENT_ID: client.id, SMOKE_CLIENT_SECRET: client.secret });
  const child = spawn('npm', ['run', '--silent', 'smoke', '--', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The check lines: `PASS name: ...`, `FAIL name: ...` or `SKIP name: ...`. */
const checkLines = (output: string) => output.split('\n').filter((line) => /^(PASS|FAIL|SKIP) /.test(line));
const looksLikeAJwt = /eyJ[\w-]+\.eyJ[\w-]+\./;

async function activityOf(clientId: string): Promise<Record<string, unknown>[]> {
  return (await admin('GET', `/api/admin/clients/${clientId}/activity`)).items as Record<string, unknown>[];
}

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({ name: 'smoke' }));
  // The client docs/deployment.md has a user create: confidential, client_credentials, no scopes.
  const created = await admin('POST', '/api/admin/clients', {
    type: 'confidential',
    name: 'smoke check',
    environment_id: app.bootstrap.environments.defaultId,
  });
  smokeClient = { id: String(created.client_id), secret: String(created.client_secret) };
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('npm run smoke (bin/smoke.ts) against the local server', () => {
  it('passes every check, one line each, printing neither the secret nor the token, and writes only the one token', async () => {
    const run = await smoke([app.url], smokeClient);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = checkLines(run.stdout);
    expect(lines.map((line) => line.replace(/:.*$/, ''))).toEqual(checkNames.map((name) => `PASS ${name}`));
    expect(run.stdout).toContain(`PASS token-signature: verified with jose against the JWKS: kid `);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`All ${checkNames.length} checks passed.`);
    expect(run.stdout).not.toContain(smokeClient.secret);
    expect(run.stdout).not.toMatch(looksLikeAJwt);

    // The refusals (a wrong secret at introspection, the admin API without a token, an
    // unknown path) wrote nothing: the client's activity holds the one token request.
    const rows = await activityOf(smokeClient.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ request_type: 'client_credentials', success: true });
  }, 60_000);

  it('accepts the issuer with a trailing slash and another --resource, which becomes the audience', async () => {
    const run = await smoke([`${app.url}/`, '--resource', 'https://mcp.example.test/mcp'], smokeClient);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('PASS token: client_credentials for https://mcp.example.test/mcp:');
  }, 60_000);

  it('fails with exit code 1 and a FAIL line naming the token request when the client secret is wrong', async () => {
    const wrong = `${smokeClient.secret.slice(0, -4)}AAAA`;
    const run = await smoke([app.url], { id: smokeClient.id, secret: wrong });
    expect(run.code).toBe(1);
    const lines = checkLines(run.stdout);
    expect(lines).toHaveLength(checkNames.length);
    expect(lines).toContain(
      `FAIL token: client_credentials at ${app.url}/api/token: expected 200, got 401 invalid_client (Client authentication failed.)`,
    );
    // What needs the token is not run, and says so; the rest still pass.
    expect(lines.filter((line) => line.startsWith('SKIP '))).toEqual([
      'SKIP token-signature: not run, an earlier check it needs failed',
      'SKIP introspection: not run, an earlier check it needs failed',
    ]);
    expect(lines.filter((line) => line.startsWith('PASS '))).toHaveLength(checkNames.length - 3);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`3 of ${checkNames.length} checks failed.`);
    expect(run.stdout).not.toContain(wrong);
    expect(run.stdout).not.toContain(smokeClient.secret);
  }, 60_000);

  it('fails when the URL is not the issuer the server names', async () => {
    const other = app.url.replace('localhost', '127.0.0.1');
    const run = await smoke([other], smokeClient);
    expect(run.code).toBe(1);
    expect(checkLines(run.stdout)[0]).toBe(`FAIL discovery: issuer is "${app.url}", not ${other}`);
  }, 60_000);

  it('is a usage error (exit code 2) without the client in the environment', async () => {
    const run = await smoke([app.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: set SMOKE_CLIENT_ID and SMOKE_CLIENT_SECRET');
    expect(run.stdout).toBe('');
  }, 30_000);
});
