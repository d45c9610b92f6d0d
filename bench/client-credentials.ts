/**
 * client_credentials under load, one connection at a time (as a Lambda function serves one
 * request per wake-up) and 10 at once: this server (`npm start`, DynamoDB Local, Argon2id policy,
 * writing its token record and activity row per request) against node-oidc-provider (memory
 * adapter, JWT access tokens) with the same signing algorithm, RS256 and ES256, in alternating
 * rounds so all see the same machine state. Every server runs on the same Node.js: BENCH_NODE
 * (e.g. a Node.js 24 binary, Lambda's runtime) or else the one running the bench. The target: the
 * CPU this server spends per token beyond the reference's (its durable read and writes through
 * the AWS SDK, and the rest of a real deployment's work) is at most 1.5 ms.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../lib/bundling';
import { freePort } from '../lambdas/local/dynamodb-local';
import type { BootstrapFile } from '../lambdas/local/app';
import { median, runLoad, warmUp } from './load';
import { measured, type MeasuredRound } from './process-cpu';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** The Node.js every server under test runs on (the bench itself runs on whichever started it). */
export const serverNode = process.env.BENCH_NODE ?? process.execPath;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/** Connection counts measured in turn (BENCH_CONNECTIONS=1,10). */
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
/** The most extra CPU per token, in ms, this server may spend beyond the reference. */
const extraCpuTarget = 1.5;

export function start(command: string, args: string[], env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // Only the tail is kept (for the error message): a server under load logs a metric line per token.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${output.slice(-500)}`)), 90_000);
    const onData = (chunk: Buffer) => {
      keep(chunk);
      if (output.includes(readyText)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData).on('data', keep);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', keep);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output.slice(-500)}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/** The version of serverNode, e.g. v24.11.0. */
export const nodeVersion = (): string => execFileSync(serverNode, ['--version'], { encoding: 'utf8' }).trim();

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** One server under test: its process (for CPU readings) and the request that gets a token. */
interface Target {
  readonly label: string;
  readonly process: ChildProcess;
  readonly request: { url: string; headers: Record<string, string>; body: string };
}

export interface OurServer {
  readonly process: ChildProcess;
  readonly bootstrap: BootstrapFile;
  /** Removes the server's files (call after stop). */
  cleanUp(): Promise<void>;
}

/**
 * `npm start` as a user runs it (the same handlers through the local server, on serverNode),
 * with DynamoDB Local in memory (IN_MEMORY). DynamoDB Local's on-disk mode (SQLite under
 * DATA_DIR) answers several times slower: the server then waits more per token and handles
 * fewer events per wake-up, which raises its CPU per token (bench/README.md): a cost of the
 * stand-in, not of the work. The in-memory run keeps
 * its files in a temporary folder, found through TMPDIR.
 */
export async function startOurs(env: Record<string, string>): Promise<OurServer> {
  const tmp = await mkdtemp(join(tmpdir(), 'authz-bench-'));
  const port = env.PORT ?? String(await freePort());
  const child = await start(
    serverNode,
    ['--import', 'tsx', 'bin/local.ts'],
    // Metric documents written, as in Lambda (the local server leaves them out by default).
    {
      HASH_METHOD: 'argon2id',
      LOG_LEVEL: 'info',
      POWERTOOLS_METRICS_DISABLED: 'false',
      ...env,
      PORT: port,
      IN_MEMORY: 'true',
      TMPDIR: tmp,
    },
    'Press Ctrl-C',
  );
  const [dataDir] = (await readdir(tmp)).filter((name) => name.startsWith('authz-local-'));
  if (!dataDir) throw new Error(`the server left no data folder in ${tmp}`);
  const bootstrap = JSON.parse(await readFile(join(tmp, dataDir, 'bootstrap.json'), 'utf8')) as BootstrapFile;
  return { process: child, bootstrap, cleanUp: () => rm(tmp, { recursive: true, force: true }) };
}

/**
 * client_credentials under load: this server with RS256 and with ES256 tokens, and
 * node-oidc-provider with each, in alternating rounds, at each connection count. Prints
 * throughput and the CPU each server's own Node.js processes spend per token (process CPU read
 * before and after each round; DynamoDB Local reported apart).
 */
export async function clientCredentialsBench(): Promise<string> {
  const [rsPort, esPort, refRsPort, refEsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const ours: OurServer[] = [];
  const servers: ChildProcess[] = [];
  try {
    ours.push(await startOurs({ PORT: String(rsPort), SIGNING_ALG: 'RS256' }));
    ours.push(await startOurs({ PORT: String(esPort), SIGNING_ALG: 'ES256' }));
    servers.push(...ours.map((o) => o.process));
    const rs = ours[0]!.bootstrap.adminClient;
    const es = ours[1]!.bootstrap.adminClient;
    for (const [port, alg] of [
      [refRsPort, 'RS256'],
      [refEsPort, 'ES256'],
    ] as const) {
      servers.push(
        await start(
          serverNode,
          ['bench/reference/oidc-provider-server.mjs'],
          {
            PORT: String(port),
            CLIENT_ID: rs.clientId,
            CLIENT_SECRET: rs.clientSecret,
            RESOURCE: 'https://api.example.test',
            SIGNING_ALG: alg,
          },
          'ready',
        ),
      );
    }
    const request = (port: number, path: string, id: string, secret: string) => ({
      url: `http://127.0.0.1:${port}${path}`,
      headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=admin',
    });
    const targets: Target[] = [
      { label: 'this server, RS256', process: servers[0]!, request: request(rsPort, '/api/token', rs.clientId, rs.clientSecret) },
      { label: 'this server, ES256', process: servers[1]!, request: request(esPort, '/api/token', es.clientId, es.clientSecret) },
      { label: 'node-oidc-provider, RS256', process: servers[2]!, request: request(refRsPort, '/token', rs.clientId, rs.clientSecret) },
      { label: 'node-oidc-provider, ES256', process: servers[3]!, request: request(refEsPort, '/token', rs.clientId, rs.clientSecret) },
    ];
    for (const target of targets) {
      const probe = await fetch(target.request.url, { method: 'POST', headers: target.request.headers, body: target.request.body });
      if (probe.status !== 200) throw new Error(`${target.label} answered ${probe.status}: ${await probe.text()}`);
    }
    await warmUp(targets.map((t) => t.request));
    const summary = (rs: MeasuredRound[]) => ({
      rps: median(rs.map((r) => r.load.requestsPerSecond)),
      p50: median(rs.map((r) => r.load.p50Ms)),
      p99: median(rs.map((r) => r.load.p99Ms)),
      cpu: median(rs.map((r) => r.cpuMsPerRequest)),
      other: median(rs.map((r) => r.otherCpuMsPerRequest)),
      failures: rs.reduce((n, r) => n + r.load.non2xx + r.load.errors, 0),
    });
    const line = (label: string, r: ReturnType<typeof summary>) =>
      `${label.padEnd(27)}${r.rps.toFixed(0).padStart(6)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ${r.cpu.toFixed(2).padStart(9)}  ${r.other.toFixed(2).padStart(11)}  ${r.failures}`;
    const report = [
      `client_credentials, ${rounds} alternating rounds of ${seconds} s per connection count (medians); CPU is process CPU per request`,
      `every server on Node.js ${nodeVersion()}${process.env.BENCH_NODE ? ' (BENCH_NODE)' : ''}; DynamoDB Local in memory`,
    ];
    for (const connections of connectionCounts) {
      const results = targets.map((): MeasuredRound[] => []);
      for (let round = 0; round < rounds; round++) {
        for (const [i, target] of targets.entries())
          results[i]!.push(await measured(target.process.pid!, () => runLoad({ ...target.request, seconds, connections })));
      }
      const rows = results.map(summary);
      const extra = (ours: number, reference: number) => {
        const ms = rows[ours]!.cpu - rows[reference]!.cpu;
        return `${ms.toFixed(2)} ms (${ms <= extraCpuTarget ? 'within' : 'OVER'} the ${extraCpuTarget} ms target)`;
      };
      report.push(
        '',
        `${connections} connection${connections === 1 ? '' : 's'}`,
        `                             req/s  p50 ms  p99 ms  CPU ms/tok  DDB Local ms  failed`,
        ...targets.map((t, i) => line(t.label, rows[i]!)),
        `extra CPU per token over the reference: RS256 ${extra(0, 2)}; ES256 ${extra(1, 3)}`,
        `throughput ratio, RS256 (this / reference): ${(rows[0]!.rps / rows[2]!.rps).toFixed(2)}  (information: ours also writes a token record and an activity row per token)`,
      );
    }
    return report.join('\n');
  } finally {
    await Promise.all(servers.map(stop));
    await Promise.all(ours.map((o) => o.cleanUp()));
  }
}
