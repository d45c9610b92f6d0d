/**
 * The `tollgate` CLI against the local server, as an admin runs it (README "CLI"): in-process
 * through runCli for each command's success and refusal, and once as the compiled file with
 * plain node, the way the installed package's "bin" runs it (behaviour CLI-1..CLI-4).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { commands, runCli } from '../../cli/main';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';

const root = resolve(__dirname, '../..');
let app: LocalApp;
let home: string;
let adminId: string;
let adminSecret: string;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Credentials from the environment (behaviour CLI-1) unless a test passes its own. */
async function tollgate(argv: string[], env: Record<string, string | undefined> = {}, secret = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: {
      XDG_CONFIG_HOME: home,
      TOLLGATE_ISSUER: app.url,
      TOLLGATE_CLIENT_ID: adminId,
      TOLLGATE_CLIENT_SECRET: adminSecret,
      ...env,
    },
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readSecret: async () => secret,
  });
  return { code, stdout, stderr };
}

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, any>;
const loggedOut = { TOLLGATE_ISSUER: undefined, TOLLGATE_CLIENT_ID: undefined, TOLLGATE_CLIENT_SECRET: undefined };

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `e2e-cli-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL, MAIL_OUTBOX_DIR: undefined },
  });
  adminId = app.bootstrap.adminClient.clientId;
  adminSecret = app.bootstrap.adminClient.clientSecret;
});

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tollgate-cli-'));
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

afterAll(async () => {
  await app.close();
});

describe('login (behaviour CLI-1)', () => {
  test('checks the credentials, saves them 0600 in a 0700 folder under XDG_CONFIG_HOME, never prints the secret; later commands use the file', async () => {
    const login = await tollgate(['login', app.url, '--client-id', adminId], loggedOut, adminSecret);
    expect(login).toMatchObject({ code: 0, stderr: '' });
    const file = join(home, 'tollgate', 'credentials.json');
    expect(login.stdout).toBe(`Logged in to ${app.url} as ${adminId}; saved to ${file}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'tollgate')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ issuer: app.url, client_id: adminId, client_secret: adminSecret });

    const listed = await tollgate(['clients', 'list', '--json'], loggedOut);
    expect(listed.code).toBe(0);
    expect(json(listed).items.map((client: { client_id: string }) => client.client_id)).toContain(adminId);

    const logout = await tollgate(['logout'], loggedOut);
    expect(logout.code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  test('--json answers the issuer, client and file, not the secret', async () => {
    const login = await tollgate(['login', '--json'], {}, 'unused');
    expect(login.code).toBe(0);
    expect(json(login)).toEqual({ issuer: app.url, client_id: adminId, credentials_file: join(home, 'tollgate', 'credentials.json') });
    expect(login.stdout).not.toContain(adminSecret);
  });

  test('a wrong secret exits 1 with the token endpoint’s invalid_client and its description, and saves nothing', async () => {
    const login = await tollgate(['login', app.url, '--client-id', adminId], loggedOut, 'not-the-secret');
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/^invalid_client: \S.*\n$/);
    expect(login.stderr).not.toContain('not-the-secret');
    expect(existsSync(join(home, 'tollgate', 'credentials.json'))).toBe(false);
  });

  test('a wrong secret a saved file would have kept does not replace it', async () => {
    expect((await tollgate(['login'], {})).code).toBe(0);
    const file = join(home, 'tollgate', 'credentials.json');
    const saved = readFileSync(file, 'utf8');
    expect((await tollgate(['login'], { TOLLGATE_CLIENT_SECRET: 'wrong' })).code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(saved);
  });

  test('an http issuer off the loopback host is refused before the secret is sent: exit 2', async () => {
    const run = await tollgate(['login', 'http://auth.example.com', '--client-id', adminId], loggedOut, adminSecret);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^tollgate login: issuer: "http:\/\/auth\.example\.com" must use https \(http only on localhost/);
    expect(existsSync(join(home, 'tollgate', 'credentials.json'))).toBe(false);
  });

  test('no credentials at all: exit 2 naming login and the environment variables, nothing sent', async () => {
    const run = await tollgate(['users', 'list'], loggedOut);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'not logged in: run "tollgate login", or set TOLLGATE_ISSUER, TOLLGATE_CLIENT_ID and TOLLGATE_CLIENT_SECRET',
    );
  });

  test('a command with a wrong secret in the environment exits 1 with invalid_client (behaviour CLI-3)', async () => {
    const run = await tollgate(['clients', 'list'], { TOLLGATE_CLIENT_SECRET: 'wrong' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^invalid_client: \S/);
    expect(run.stdout).toBe('');
  });

  test('a server that does not answer: exit 1, unreachable and the origin (behaviour CLI-3)', async () => {
    const run = await tollgate(['users', 'list'], { TOLLGATE_ISSUER: 'http://127.0.0.1:9' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^unreachable: http:\/\/127\.0\.0\.1:9 did not answer/);
  });
});

describe('clients (behaviour CLI-2, CLI-3)', () => {
  test('create, get, list and delete: tables by default, JSON that parses with --json, the secret once', async () => {
    const name = `CLI app ${randomUUID().slice(0, 8)}`;
    const created = await tollgate([
      'clients',
      'create',
      '--name',
      name,
      '--environment',
      app.bootstrap.environments.defaultId,
      '--scope',
      'email',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const client = json(created);
    expect(client).toMatchObject({ name, type: 'confidential', scopes: ['email'], grant_types: ['client_credentials'] });
    expect(typeof client.client_secret).toBe('string');

    const human = await tollgate(['clients', 'create', '--name', `${name} 2`, '--environment', app.bootstrap.environments.defaultId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^client_secret +\S{20,}$/m);
    expect(human.stderr).toBe('The client secret is shown this once: store it now.\n');

    const got = await tollgate(['clients', 'get', client.client_id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^name +${name}$`, 'm'));
    expect(got.stdout).not.toContain('client_secret');

    const listed = await tollgate(['clients', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^CLIENT_ID +NAME +TYPE +ENVIRONMENT +REGISTRATION +SCOPES +CREATED_AT$/);
    expect(listed.stdout).toMatch(new RegExp(`^${client.client_id} +${name} +confidential `, 'm'));

    const deleted = await tollgate(['clients', 'delete', client.client_id]);
    expect(deleted).toEqual({ code: 0, stdout: `Deleted client ${client.client_id}\n`, stderr: '' });
    expect((await tollgate(['clients', 'get', client.client_id])).code).toBe(1);
  });

  test('--limit and --cursor page, the next page is announced on stderr, --all follows every cursor', async () => {
    const first = await tollgate(['clients', 'list', '--limit', '1']);
    expect(first.code).toBe(0);
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const page = json(await tollgate(['clients', 'list', '--limit', '1', '--json']));
    expect(page.next_cursor).toBe(cursor);
    const second = json(await tollgate(['clients', 'list', '--limit', '1', '--cursor', cursor!, '--json']));
    expect(second.items[0].client_id).not.toBe(page.items[0].client_id);
    const all = json(await tollgate(['clients', 'list', '--limit', '1', '--all', '--json']));
    expect(all.items.length).toBeGreaterThanOrEqual(2);
    expect(all).not.toHaveProperty('next_cursor');
  });

  test('get and delete of an unknown client: exit 1 with the 404 not_found message', async () => {
    for (const verb of ['get', 'delete']) {
      const run = await tollgate(['clients', verb, 'tgc_doesnotexist00000']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('not_found: No client "tgc_doesnotexist00000".\n');
      expect(run.stdout).toBe('');
    }
  });

  test('create refused by the server (unknown environment): exit 1, invalid_request naming the field, nothing created', async () => {
    const name = `Refused ${randomUUID().slice(0, 8)}`;
    const run = await tollgate(['clients', 'create', '--name', name, '--environment', 'env_nowhere', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^invalid_request: .*environment_id/);
    expect(json(run)).toMatchObject({ error: 'invalid_request', status: 400 });
    const all = json(await tollgate(['clients', 'list', '--all', '--json']));
    expect(all.items.map((client: { name: string }) => client.name)).not.toContain(name);
  });

  test('rotate-secret (behaviour ADMIN-20): a new secret shown once, the old one working on for --overlap; refusals exit 1', async () => {
    const created = json(
      await tollgate([
        'clients',
        'create',
        '--name',
        `Rotating ${randomUUID().slice(0, 8)}`,
        '--environment',
        app.bootstrap.environments.defaultId,
        '--json',
      ]),
    );
    const rotated = await tollgate(['clients', 'rotate-secret', created.client_id, '--overlap', '3600']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^client_secret +\S{20,}$/m);
    expect(rotated.stdout).toMatch(/^previous_secret_expires_at +\d{4}-/m);
    expect(rotated.stderr).toBe('The new client secret is shown this once: store it now.\n');
    const newSecret = /^client_secret +(\S+)$/m.exec(rotated.stdout)![1]!;
    for (const secret of [created.client_secret, newSecret]) {
      const token = await fetch(`${app.url}/api/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${created.client_id}:${secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      expect(token.status).toBe(200);
    }
    const now = json(await tollgate(['clients', 'rotate-secret', created.client_id, '--overlap', '0', '--json']));
    expect(now.previous_secret_expires_at).toBeNull();

    const bad = await tollgate(['clients', 'rotate-secret', created.client_id, '--overlap', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: /);
    const unknown = await tollgate(['clients', 'rotate-secret', 'tgc_doesnotexist00000']);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'not_found: No client "tgc_doesnotexist00000".\n']);
  });

  test('a stored name with control characters is shown with ? in a table', async () => {
    const name = `Bell\u0007 ${randomUUID().slice(0, 8)}`;
    const created = json(
      await tollgate(['clients', 'create', '--name', name, '--environment', app.bootstrap.environments.defaultId, '--json']),
    );
    expect(created.name).toBe(name);
    const got = await tollgate(['clients', 'get', created.client_id]);
    expect(got.stdout).not.toContain('\u0007');
    expect(got.stdout).toContain(name.replace('\u0007', '?'));
  });
});

describe('keys (behaviour CLI-2, CLI-3)', () => {
  test('create shows the key once, list shows it active, revoke revokes it; --json parses', async () => {
    const client = json(
      await tollgate([
        'clients',
        'create',
        '--name',
        'Keys app',
        '--environment',
        app.bootstrap.environments.defaultId,
        '--scope',
        'email',
        '--json',
      ]),
    );
    const created = await tollgate(['keys', 'create', client.client_id, '--user', app.bootstrap.admin.userId, '--name', 'nightly']);
    expect(created.code).toBe(0);
    const apiKey = /^api_key +(tgk_\S+)$/m.exec(created.stdout)?.[1];
    expect(apiKey).toMatch(/^tgk_[0-9a-f]{16}_/);
    expect(created.stdout).not.toMatch(/^secret /m);
    expect(created.stderr).toBe('The API key is shown this once: store it now.\n');
    const keyId = apiKey!.split('_')[1]!;

    const listed = await tollgate(['keys', 'list', client.client_id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${keyId} +nightly +${app.bootstrap.admin.userId} +active +email `, 'm'));

    const revoked = await tollgate(['keys', 'revoke', client.client_id, keyId, '--json']);
    expect(revoked.code).toBe(0);
    expect(json(revoked)).toMatchObject({ key_id: keyId, status: 'revoked' });
    expect(json(await tollgate(['keys', 'list', client.client_id, '--json'])).items[0]).toMatchObject({ key_id: keyId, status: 'revoked' });
  });

  test('create, list and revoke for an unknown client or key: exit 1 with the 404 message', async () => {
    for (const argv of [
      ['keys', 'create', 'tgc_doesnotexist00000', '--user', app.bootstrap.admin.userId],
      ['keys', 'list', 'tgc_doesnotexist00000'],
      ['keys', 'revoke', adminId, '0123456789abcdef'],
    ]) {
      const run = await tollgate(argv);
      expect({ argv, code: run.code }).toEqual({ argv, code: 1 });
      expect(run.stderr).toMatch(/^not_found: \S/);
    }
  });
});

describe('users, activity and audit (behaviour CLI-2, CLI-3)', () => {
  test('users list shows the bootstrap admin; --json parses', async () => {
    const run = await tollgate(['users', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${app.bootstrap.admin.userId} +${app.bootstrap.admin.email} `, 'm'));
    expect(json(await tollgate(['users', 'list', '--json'])).items.map((user: { id: string }) => user.id)).toContain(
      app.bootstrap.admin.userId,
    );
  });

  test('users list with a limit the API refuses: exit 1, invalid_request naming limit', async () => {
    const run = await tollgate(['users', 'list', '--limit', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^invalid_request: .*limit/);
  });

  test("activity lists the admin client's own token requests, refusals with their reason; a bad --success is invalid_request", async () => {
    await tollgate(['users', 'list'], { TOLLGATE_CLIENT_SECRET: 'wrong' });
    await tollgate(['users', 'list']);
    const run = await tollgate(['activity', adminId, '--json']);
    expect(run.code).toBe(0);
    const rows = json(run).items as Array<{ request_type: string; success: boolean; reason: string | null }>;
    expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ request_type: 'client_credentials', success: true })]));
    const failed = await tollgate(['activity', adminId, '--success', 'false']);
    expect(failed.code).toBe(0);
    expect(failed.stdout.split('\n')[0]).toMatch(/^AT +REQUEST +SUCCESS +REASON +USER +KEY +IP$/);
    expect(failed.stdout).toMatch(/client_credentials +false +invalid_client/);

    const bad = await tollgate(['activity', adminId, '--success', 'maybe']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: .*success/);
  });

  test('audit shows the changes with their admin-client actor; a bad --from is invalid_request', async () => {
    const client = json(
      await tollgate(['clients', 'create', '--name', 'Audited', '--environment', app.bootstrap.environments.defaultId, '--json']),
    );
    const run = await tollgate(['audit', '--type', 'client']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`client\\.create +admin-client ${adminId} +${client.client_id}`));
    expect(json(await tollgate(['audit', '--json'])).items[0]).toHaveProperty('type');

    const bad = await tollgate(['audit', '--from', 'yesterday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: .*from/);
  });
});

describe('help and wrong calls (behaviour CLI-3)', () => {
  test.each(commands.map((command) => command.words.join(' ')))('tollgate %s --help prints its usage and exits 0', async (words) => {
    const run = await tollgate([...words.split(' '), '--help'], loggedOut);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`^Usage: tollgate ${words}\\b`));
    expect(run.stdout).toContain('--json');
  });

  test('tollgate --help and a group alone list the commands', async () => {
    expect((await tollgate(['--help'])).stdout).toContain('keys revoke');
    const group = await tollgate(['keys']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('Usage: tollgate keys <command>');
  });

  test('an unknown command, an unknown option or a missing argument exits 2 without calling the server', async () => {
    const unknown = await tollgate(['clients', 'rename'], { TOLLGATE_ISSUER: 'http://127.0.0.1:9' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^tollgate: unknown command "clients rename"/);
    const option = await tollgate(['users', 'list', '--colour'], { TOLLGATE_ISSUER: 'http://127.0.0.1:9' });
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^tollgate users list: Unknown option '--colour'/);
    const missing = await tollgate(['keys', 'revoke', adminId], { TOLLGATE_ISSUER: 'http://127.0.0.1:9' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^tollgate keys revoke: missing <key_id>/);
  });
});

describe('the compiled CLI with plain node (behaviour CLI-4)', () => {
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'tollgate-build-'));
    // The build's own settings (tsconfig.build.json), for the CLI's entry alone.
    writeFileSync(
      join(out, 'tsconfig.json'),
      JSON.stringify({
        extends: join(root, 'tsconfig.build.json'),
        compilerOptions: { outDir: join(out, 'dist'), rootDir: root, declaration: false, typeRoots: [join(root, 'node_modules/@types')] },
        files: [join(root, 'cli/tollgate.ts')],
      }),
    );
    await promisify(execFile)(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'tsconfig.json')]);
  }, 60_000);

  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
  });

  const node = (argv: string[], env: Record<string, string>, input?: string) =>
    new Promise<Run>((done) => {
      const child = execFile(
        process.execPath,
        [join(out, 'dist/cli/tollgate.js'), ...argv],
        { env: { PATH: process.env.PATH!, ...env } },
        (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin!.end(input);
    });

  test('the package.json bin is the compiled entry, which starts with a node shebang', () => {
    const bin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin;
    expect(bin).toEqual({ tollgate: 'dist/cli/tollgate.js' });
    expect(readFileSync(join(out, 'dist/cli/tollgate.js'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  test('login reads the secret from a pipe, then users list --json parses; a wrong secret exits 1', async () => {
    const env = { XDG_CONFIG_HOME: home };
    const login = await node(['login', app.url, '--client-id', adminId], env, `${adminSecret}\n`);
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(login.stdout).not.toContain(adminSecret);
    const users = await node(['users', 'list', '--json'], env);
    expect(users.code).toBe(0);
    expect(JSON.parse(users.stdout).items.length).toBeGreaterThan(0);
    const wrong = await node(['clients', 'list'], { ...env, TOLLGATE_CLIENT_SECRET: 'wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^invalid_client: \S/);
  });
});
