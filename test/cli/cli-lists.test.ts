/**
 * The CLI's list options against the local server (behaviour CLI-5, CLI-6): each is the admin
 * API's search or filter of the same meaning, lists come newest first, and a page tells how to
 * get the next one.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/main';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';

let app: LocalApp;
let home: string;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function tollgate(argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: {
      XDG_CONFIG_HOME: home,
      TOLLGATE_ISSUER: app.url,
      TOLLGATE_CLIENT_ID: app.bootstrap.adminClient.clientId,
      TOLLGATE_CLIENT_SECRET: app.bootstrap.adminClient.clientSecret,
    },
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readSecret: async () => '',
  });
  return { code, stdout, stderr };
}

type Listed = { items: Record<string, unknown>[]; next_cursor?: string };
const listed = (run: Run) => JSON.parse(run.stdout) as Listed;

const marker = `Cli${randomUUID().slice(0, 8)}`;
let environmentId: string;
const clientIds: string[] = [];

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `e2e-cli-lists-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL, MAIL_OUTBOX_DIR: undefined },
  });
  home = mkdtempSync(join(tmpdir(), 'tollgate-cli-lists-'));
  environmentId = app.bootstrap.environments.defaultId;
  for (const [i, type] of (['confidential', 'public', 'confidential'] as const).entries()) {
    const made = await tollgate([
      'clients',
      'create',
      '--name',
      `${marker} ${i}`,
      '--environment',
      environmentId,
      '--type',
      type,
      '--scope',
      'profile',
      ...(type === 'public' ? ['--redirect-uri', 'http://localhost:5173/callback'] : []),
      '--json',
    ]);
    if (made.code !== 0) throw new Error(made.stderr);
    clientIds.push(String(JSON.parse(made.stdout).client_id));
    // Clients made in one millisecond sort by id: a few apart, their order is their creation's.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
});

afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await app.close();
});

describe('clients list (behaviour CLI-5, CLI-6, ADMIN-21)', () => {
  test('--search by a part of the name, newest first; --limit 1 prints the next cursor and --cursor follows it', async () => {
    const first = await tollgate(['clients', 'list', '--search', marker.toLowerCase(), '--limit', '1']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(clientIds[2]);
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const seen = [...listed(await tollgate(['clients', 'list', '--search', marker, '--limit', '1', '--json'])).items];
    let next: string | undefined = cursor;
    while (next) {
      const page = listed(await tollgate(['clients', 'list', '--search', marker, '--limit', '1', '--cursor', next, '--json']));
      seen.push(...page.items);
      next = page.next_cursor;
    }
    expect(seen.map((client) => client.client_id)).toEqual([...clientIds].reverse());
  });

  test('--type and --environment filter; an exact id finds the one client', async () => {
    const publicOnes = listed(
      await tollgate(['clients', 'list', '--search', marker, '--type', 'public', '--environment', environmentId, '--json']),
    );
    expect(publicOnes.items.map((client) => client.client_id)).toEqual([clientIds[1]]);
    const byId = listed(await tollgate(['clients', 'list', '--search', clientIds[0]!, '--json']));
    expect(byId.items.map((client) => client.client_id)).toEqual([clientIds[0]]);
  });

  test('a --type the API refuses: exit 1, invalid_request naming type', async () => {
    const run = await tollgate(['clients', 'list', '--type', 'robot']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^invalid_request: type: /);
  });
});

describe('users list, keys list and audit (behaviour CLI-5)', () => {
  test('users list --search by address and --admin true find the bootstrap admin; --admin maybe is invalid_request', async () => {
    const admin = app.bootstrap.admin;
    const byAddress = listed(await tollgate(['users', 'list', '--search', admin.email.toUpperCase(), '--json']));
    expect(byAddress.items.map((user) => user.id)).toEqual([admin.userId]);
    const admins = listed(await tollgate(['users', 'list', '--admin', 'true', '--environment', environmentId, '--json']));
    expect(admins.items.map((user) => user.id)).toContain(admin.userId);
    expect(admins.items.every((user) => user.admin === true)).toBe(true);
    const bad = await tollgate(['users', 'list', '--admin', 'maybe']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: admin: /);
  });

  test('keys list --status keeps the keys in that state', async () => {
    const clientId = clientIds[0]!;
    const user = app.bootstrap.admin.userId;
    const kept = JSON.parse((await tollgate(['keys', 'create', clientId, '--user', user, '--json'])).stdout) as { key_id: string };
    const revoked = JSON.parse((await tollgate(['keys', 'create', clientId, '--user', user, '--json'])).stdout) as { key_id: string };
    expect((await tollgate(['keys', 'revoke', clientId, revoked.key_id])).code).toBe(0);
    const active = listed(await tollgate(['keys', 'list', clientId, '--status', 'active', '--json']));
    expect(active.items.map((key) => key.key_id)).toEqual([kept.key_id]);
    const gone = listed(await tollgate(['keys', 'list', clientId, '--status', 'revoked', '--json']));
    expect(gone.items.map((key) => key.key_id)).toEqual([revoked.key_id]);
    const bad = await tollgate(['keys', 'list', clientId, '--status', 'lost']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: status: /);
  });

  test('audit --actor and --subject keep the entries of that caller about that id', async () => {
    const adminClient = app.bootstrap.adminClient.clientId;
    const run = listed(await tollgate(['audit', '--actor', adminClient, '--subject', clientIds[1]!, '--json']));
    expect(run.items.map((entry) => entry.type)).toEqual(['client.create']);
    expect(listed(await tollgate(['audit', '--actor', 'usr_nobody', '--subject', clientIds[1]!, '--json'])).items).toEqual([]);
  });
});
