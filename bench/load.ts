/** Load runs with autocannon: fixed connections and duration, loopback only, bounded. */
import autocannon from 'autocannon';

export interface LoadResult {
  readonly requestsPerSecond: number;
  /** Requests completed in the run. */
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly connections?: number;
  readonly seconds: number;
  /** Stop after this many requests instead (or before `seconds` run out). */
  readonly amount?: number;
  /**
   * Headers for each request, given the connection's context object (kept per
   * connection): lets a run present a different credential per request or per connection.
   */
  readonly headersFor?: (context: Record<string, unknown>) => Record<string, string>;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('load runs target this machine only');
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        method: options.method ?? 'POST',
        headers: options.headers,
        body: options.body,
        connections: options.connections ?? 10,
        duration: options.seconds,
        ...(options.amount !== undefined ? { amount: options.amount } : {}),
        ...(options.headersFor
          ? {
              requests: [
                {
                  setupRequest: (request: autocannon.Request, context: object) => ({
                    ...request,
                    headers: { ...options.headers, ...options.headersFor!(context as Record<string, unknown>) },
                  }),
                },
              ],
            }
          : {}),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.average,
          requests: result.requests.total,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
  });
}

/**
 * Alternating warm-up rounds before anything is measured. DynamoDB Local is a Java program whose
 * JIT keeps speeding up for tens of seconds, and each of our servers starts its own: throughput
 * rises round after round and the server's CPU per token falls with it (fewer requests per
 * wake-up when each waits longer on the database), level from about 30 s on (the rounds are in
 * bench/README.md). The default warms each target for 30 s
 * (BENCH_WARMUP_SECONDS per round, 3 rounds), so what is measured is the steady state.
 */
export async function warmUp(
  targets: readonly Omit<LoadOptions, 'seconds'>[],
  rounds = 3,
  seconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 10),
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) await runLoad({ ...target, seconds });
  }
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
