/**
 * `npm start` as a newcomer runs it: the CLI in its own process. It prints its URL and
 * credentials, serves requests, and Ctrl-C stops it together with its DynamoDB Local
 * child. Setup problems end in one clear line and exit code 1.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lambdas/local/dynamodb-local';

const root = join(__dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

function startCli(
  env: Record<string, string>,
  args: string[] = [],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(tsx, ['bin/local.ts', ...args], {
    cwd: root,
    env: { ...process.env, HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(predicate: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every process below `pid`, from the process table. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start (bin/local.ts)', () => {
  it('starts in memory, prints its URL, the dashboard and the bootstrap credentials, serves health, and Ctrl-C leaves no Java process', async () => {
    const port = await freePort();
    const cli = startCli({ PORT: String(port) }, ['--in-memory']);
    await waitFor(() => cli.output().includes('Press Ctrl-C to stop.'));
    expect(cli.output()).toContain(`Authorization server running at http://localhost:${port}`);
    expect(cli.output()).toMatch(/admin API client\s+tgc_\S+ \/ \S+/);
    // Behaviour CONFIG-12: the dashboard's address and how to sign in: the admin user printed below, and the mailed
    // code read from this run's outbox (in memory, so the command names it).
    const outbox = /^ {2}mail {7}(\S+) /m.exec(cli.output())?.[1];
    expect(cli.output()).toContain(
      `  dashboard  http://localhost:${port}/dashboard\n` +
        '             sign in as the admin user (below);\n' +
        `             the code it mails: MAIL_OUTBOX_DIR=${outbox} npm run -s mail:code\n`,
    );
    expect((await fetch(`http://localhost:${port}/dashboard`, { redirect: 'manual' })).status).toBeLessThan(400);
    expect((await fetch(`http://localhost:${port}/api/health`)).status).toBe(200);
    // Behaviour CIMD-1: metadata-document clients work out of the box, and discovery says so.
    const discovery = await (await fetch(`http://localhost:${port}/.well-known/oauth-authorization-server`)).json();
    expect(discovery).toMatchObject({ client_id_metadata_document_supported: true, registration_endpoint: expect.any(String) });

    const children = descendants(cli.child.pid!);
    const java = children.filter((pid) => /java/.test(execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' })));
    expect(java).toHaveLength(1);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    await waitFor(() => !children.some(alive), 10_000);
  }, 90_000);

  describe('setup problems end in one clear line and exit code 1', () => {
    let blocker: Server;
    let scratch: string;

    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'authz-cli-'));
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      blocker.close();
      await chmod(join(scratch, 'locked'), 0o700).catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    });

    it('names the port when it is taken', async () => {
      const port = (blocker.address() as { port: number }).port;
      const cli = startCli({ PORT: String(port) }, ['--in-memory']);
      expect(await cli.exited).toBe(1);
      expect(cli.output().trim()).toBe(
        `error: Port ${port} is already in use; choose another with PORT (for example PORT=3001 npm start).`,
      );
    }, 30_000);

    it('names the data directory when it cannot be written', async () => {
      const file = join(scratch, 'a-file');
      await rm(file, { force: true });
      await import('node:fs/promises').then((fs) => fs.writeFile(file, 'x'));
      const cli = startCli({ PORT: String(await freePort()), DATA_DIR: join(file, 'data') });
      expect(await cli.exited).toBe(1);
      expect(cli.output().trim()).toMatch(
        new RegExp(`^error: The data directory ${file}/data is not writable \\(\\w+\\); set DATA_DIR to a folder you can write\\.$`),
      );
    }, 30_000);

    it('says Java 17+ is needed when java is not on PATH', async () => {
      const bin = join(scratch, 'bin');
      await mkdir(bin, { recursive: true });
      await symlink(process.execPath, join(bin, 'node')).catch(() => undefined);
      const cli = startCli({ PORT: String(await freePort()), PATH: bin }, ['--in-memory']);
      expect(await cli.exited).toBe(1);
      expect(cli.output().trim()).toMatch(/^error: Java 17 or newer is required to run DynamoDB Local, and `java` was not found on PATH/);
    }, 30_000);

    it('names an invalid setting and what it accepts', async () => {
      const cli = startCli({ PORT: String(await freePort()), DCR_ENABLED: 'sometimes' }, ['--in-memory']);
      expect(await cli.exited).toBe(1);
      expect(cli.output()).toContain('DCR_ENABLED must be "true" or "false" (got "sometimes")');
    }, 60_000);
  });
});
