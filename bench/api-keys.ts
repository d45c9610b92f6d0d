/**
 * API-key exchanges under load against `npm start` (HASH_METHOD=argon2id, DynamoDB Local):
 *  - first exchanges: every request presents a key this server has never verified, so
 *    each pays one Argon2id verification;
 *  - repeat exchanges: keys already verified in this process, served by the verified-key
 *    cache (the key, client and user records are still read, in one round trip, and each
 *    success writes the token record and activity row in one batch, as client_credentials
 *    does, plus a lastUsedAt stamp when the second changed);
 *  - client_credentials against the same server, in alternating rounds, for the ratio;
 *  - the Argon2id parameters and one verification's time in this process;
 *  - the median time of unknown-id, revoked and wrong-secret failures, side by side.
 */
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { hashPolicies } from '../lambdas/adapters/argon2-hasher';
import { freePort } from '../lambdas/local/dynamodb-local';
import { nodeVersion, startOurs, stop } from './client-credentials';
import { median, runLoad, warmUp } from './load';
import { measured, type MeasuredRound } from './process-cpu';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const firstExchanges = Number(process.env.BENCH_FIRST_KEYS ?? 300);
const repeatKeys = 10;
const failureSamples = 40;

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Runs `task` over `items` with at most `width` in flight. */
async function pool<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

function argon2Timing(): Promise<number> {
  return (async () => {
    const policy = hashPolicies.argon2id;
    const hash = await argon2.hash(randomBytes(32).toString('base64url'), { type: argon2.argon2id, ...policy });
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      await argon2.verify(hash, 'not-the-secret');
      times.push(performance.now() - started);
    }
    return median(times);
  })();
}

const row = (label: string, r: { rps: number; p50: number; p99: number; cpu?: number; failures: number }) =>
  `${label.padEnd(34)}${r.rps.toFixed(0).padStart(6)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ${(r.cpu === undefined ? '-' : r.cpu.toFixed(2)).padStart(9)}  ${r.failures}`;

const summarize = (rounds: MeasuredRound[]) => ({
  rps: median(rounds.map((r) => r.load.requestsPerSecond)),
  p50: median(rounds.map((r) => r.load.p50Ms)),
  p99: median(rounds.map((r) => r.load.p99Ms)),
  cpu: median(rounds.map((r) => r.cpuMsPerRequest)),
  failures: rounds.reduce((n, r) => n + r.load.non2xx + r.load.errors, 0),
});

export async function apiKeysBench(): Promise<string> {
  const oneVerification = await argon2Timing();
  const port = await freePort();
  const ours = await startOurs({ PORT: String(port), LOG_LEVEL: 'warn' });
  const server = ours.process;
  const base = `http://127.0.0.1:${port}`;
  try {
    const bootstrap = ours.bootstrap;
    const { clientId: adminId, clientSecret: adminSecret } = bootstrap.adminClient;
    const ccHeaders = { authorization: basic(adminId, adminSecret), 'content-type': 'application/x-www-form-urlencoded' };
    const admin = String(
      (await json(`${base}/api/token`, { method: 'POST', headers: ccHeaders, body: 'grant_type=client_credentials&scope=admin' }))
        .access_token,
    );
    const adminHeaders = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    const client = await json(`${base}/api/admin/clients`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({
        type: 'confidential',
        name: 'Bench',
        environment_id: bootstrap.environments.defaultId,
        scopes: ['email', 'profile'],
      }),
    });
    const user = await json(`${base}/api/admin/users`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ name: 'Bench', email: `bench-${Date.now()}@example.test` }),
    });
    // Exchanges re-check the user's grant of the client's environment (behaviour KEYX): grant it.
    await fetch(`${base}/api/admin/users/${String(user.id)}/environments/${bootstrap.environments.defaultId}`, {
      method: 'PUT',
      headers: adminHeaders,
    });
    const keysUrl = `${base}/api/admin/clients/${String(client.client_id)}/api-keys`;
    const createKey = async () => json(keysUrl, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ userId: user.id }) });

    const fresh = (await pool(Array.from({ length: firstExchanges }), 4, createKey)).map((k) => String(k.api_key));
    const repeat = (await pool(Array.from({ length: repeatKeys }), 4, createKey)).map((k) => String(k.api_key));
    const exchangeUrl = `${base}/api/token/api-key`;
    for (const key of repeat) await json(exchangeUrl, { method: 'POST', headers: { authorization: `Bearer ${key}` } }); // verified once: cached

    // First exchanges: one new key per request, so each pays Argon2id.
    let nextFresh = 0;
    const first = await runLoad({
      url: exchangeUrl,
      seconds: 120,
      amount: fresh.length,
      headersFor: () => ({ authorization: `Bearer ${fresh[nextFresh++ % fresh.length]}` }),
    });

    // Repeat exchanges, one cached key per connection, alternating with client_credentials.
    let nextRepeat = 0;
    const repeatTarget = {
      url: exchangeUrl,
      headersFor: (context: Record<string, unknown>) => ({
        authorization: `Bearer ${(context.key ??= repeat[nextRepeat++ % repeat.length]) as string}`,
      }),
    };
    const oneKey = { url: exchangeUrl, headers: { authorization: `Bearer ${repeat[0]}` } };
    const cc = { url: `${base}/api/token`, headers: ccHeaders, body: 'grant_type=client_credentials&scope=admin' };
    await warmUp([repeatTarget, cc]);
    const results: Record<'repeat' | 'oneKey' | 'cc', MeasuredRound[]> = { repeat: [], oneKey: [], cc: [] };
    const pid = server.pid!;
    for (let round = 0; round < rounds; round++) {
      results.repeat.push(await measured(pid, () => runLoad({ ...repeatTarget, seconds })));
      results.cc.push(await measured(pid, () => runLoad({ ...cc, seconds })));
      results.oneKey.push(await measured(pid, () => runLoad({ ...oneKey, seconds })));
    }

    // Failures, one at a time, interleaved so they see the same machine state.
    const revokedKey = fresh[0]!;
    const revokedId = /^tgk_([0-9a-f]{16})_/.exec(revokedKey)![1];
    await json(`${keysUrl}/${revokedId}`, { method: 'DELETE', headers: adminHeaders });
    // An active key's id with another key's secret (`tgk_` + 16 hex + `_` is 21 characters).
    const wrongSecret = `${fresh[2]!.slice(0, 21)}${fresh[1]!.slice(21)}`;
    const unknownId = `tgk_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`;
    const failures = { 'unknown id': unknownId, revoked: revokedKey, 'wrong secret': wrongSecret };
    const times: Record<string, number[]> = { 'unknown id': [], revoked: [], 'wrong secret': [] };
    const bodies = new Set<string>();
    for (let i = 0; i < failureSamples; i++) {
      for (const [name, key] of Object.entries(failures)) {
        const started = performance.now();
        const response = await fetch(exchangeUrl, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
        bodies.add(`${response.status} ${await response.text()}`);
        times[name]!.push(performance.now() - started);
      }
    }

    const firstSummary = { rps: first.requestsPerSecond, p50: first.p50Ms, p99: first.p99Ms, failures: first.non2xx + first.errors };
    const repeatSummary = summarize(results.repeat);
    const ccSummary = summarize(results.cc);
    const policy = hashPolicies.argon2id;
    return [
      `API-key exchange, 10 connections; first: ${fresh.length} never-verified keys; repeat: ${repeatKeys} cached keys (one per connection),`,
      `${rounds} rounds of ${seconds} s alternating with client_credentials on the same server (medians); Node.js ${nodeVersion()}, DynamoDB Local in memory`,
      '',
      `                                   req/s    p50 ms  p99 ms  CPU ms/req  failed`,
      row('first exchange (Argon2id)', firstSummary),
      row('repeat exchange (cached)', repeatSummary),
      row('repeat exchange, one key x10 conn', summarize(results.oneKey)),
      row('client_credentials (same run)', ccSummary),
      '',
      `ratio repeat / client_credentials: ${(repeatSummary.rps / ccSummary.rps).toFixed(2)}  (throughput, information)`,
      `CPU per repeat exchange / per client_credentials token: ${(repeatSummary.cpu / ccSummary.cpu).toFixed(2)}  (target <= 1.25; the server's Node.js processes)`,
      '',
      `Argon2id (HASH_METHOD=argon2id): m=${policy.memoryCost} KiB, t=${policy.timeCost}, p=${policy.parallelism}; one verification ${oneVerification.toFixed(1)} ms (median of 15, bench process)`,
      '',
      `failure latency, sequential, median of ${failureSamples} each (ms):`,
      ...Object.entries(times).map(([name, values]) => `  ${name.padEnd(14)}${median(values).toFixed(1).padStart(7)}`),
      `distinct failure responses (status + body): ${bodies.size}`,
    ].join('\n');
  } finally {
    await stop(server);
    await ours.cleanUp();
  }
}
