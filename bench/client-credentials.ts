/**
 * client_credentials under load (10 connections): this server (`npm start`, DynamoDB
 * Local, Argon2id policy, writing its token record and activity row per request)
 * against node-oidc-provider (memory adapter, RS256 JWT access tokens), in alternating
 * rounds so both see the same machine state. Prints both rates, latencies and the ratio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../lib/bundling';
import { freePort } from '../lambdas/local/dynamodb-local';
import type { BootstrapFile } from '../lambdas/local/app';
import { median, runLoad, warmUp, type LoadResult } from './load';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

export function start(command: string, args: string[], env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${output.slice(-500)}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) {
        clearTimeout(timer);
        output = '';
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output.slice(-500)}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export async function clientCredentialsBench(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'authz-bench-'));
  const [ourPort, refPort] = [await freePort(), await freePort()];
  const ours = await start(
    join(projectRoot, 'node_modules', '.bin', 'tsx'),
    ['bin/local.ts'],
    {
      PORT: String(ourPort),
      DATA_DIR: dataDir,
      HASH_METHOD: 'argon2id',
      LOG_LEVEL: 'info',
    },
    'Press Ctrl-C',
  );
  const bootstrap = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as BootstrapFile;
  const { clientId, clientSecret } = bootstrap.adminClient;
  const reference = await start(
    process.execPath,
    ['bench/reference/oidc-provider-server.mjs'],
    {
      PORT: String(refPort),
      CLIENT_ID: clientId,
      CLIENT_SECRET: clientSecret,
      RESOURCE: 'https://api.example.test',
    },
    'ready',
  );

  const request = (port: number, path: string) => ({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { authorization: basic(clientId, clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=admin',
  });
  const targets = { ours: request(ourPort, '/api/token'), reference: request(refPort, '/token') };
  try {
    const probe = await fetch(targets.ours.url, { method: 'POST', headers: targets.ours.headers, body: targets.ours.body });
    if (probe.status !== 200) throw new Error(`our token endpoint answered ${probe.status}: ${await probe.text()}`);
    const results: Record<keyof typeof targets, LoadResult[]> = { ours: [], reference: [] };
    await warmUp([targets.ours, targets.reference]);
    for (let round = 0; round < rounds; round++) {
      for (const name of ['ours', 'reference'] as const) results[name].push(await runLoad({ ...targets[name], seconds }));
    }
    const summary = (name: keyof typeof targets) => ({
      rps: median(results[name].map((r) => r.requestsPerSecond)),
      p50: median(results[name].map((r) => r.p50Ms)),
      p99: median(results[name].map((r) => r.p99Ms)),
      failures: results[name].reduce((n, r) => n + r.non2xx + r.errors, 0),
    });
    const a = summary('ours');
    const b = summary('reference');
    return [
      `client_credentials, 10 connections, ${rounds} alternating rounds of ${seconds} s (medians)`,
      '',
      `                       req/s    p50 ms  p99 ms  failed`,
      `this server            ${a.rps.toFixed(0).padStart(6)}  ${a.p50.toFixed(1).padStart(6)}  ${a.p99.toFixed(1).padStart(6)}  ${a.failures}`,
      `node-oidc-provider     ${b.rps.toFixed(0).padStart(6)}  ${b.p50.toFixed(1).padStart(6)}  ${b.p99.toFixed(1).padStart(6)}  ${b.failures}`,
      '',
      `ratio (this / reference): ${(a.rps / b.rps).toFixed(2)}  (target >= 1.00; ours also writes a token record and an activity row to DynamoDB per request)`,
    ].join('\n');
  } finally {
    await Promise.all([stop(ours), stop(reference)]);
    await rm(dataDir, { recursive: true, force: true });
  }
}
