/**
 * The EMF documents (lambdas/adapters/emf-metrics.ts) follow AWS's embedded metric format
 * specification: every dimension a Dimensions set names, and every metric, is a top-level member.
 */
import { createEmfMetrics } from '../../lambdas/adapters/emf-metrics';

interface EmfDocument {
  readonly _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: unknown[] }[] };
  readonly [member: string]: unknown;
}

const documents = (count: (m: ReturnType<typeof createEmfMetrics>) => void) => {
  const lines: string[] = [];
  const metrics = createEmfMetrics({
    namespace: 'Tollgate',
    service: 'svc-1',
    context: () => ({ requestId: 'req-1', clientId: 'tgc_1', coldStart: true }),
    write: (line) => lines.push(line),
    now: () => 1_800_000_000_000,
  });
  count(metrics);
  expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  return lines.map((line) => JSON.parse(line) as EmfDocument);
};

test('EMF: a count with dimensions is published under the service alone and with its dimensions, each a top-level member', () => {
  const [document] = documents((m) => m.count('TokenRefused', { grant: 'client_credentials', error: 'invalid_client' }));
  expect(document).toEqual({
    _aws: {
      Timestamp: 1_800_000_000_000,
      CloudWatchMetrics: [
        {
          Namespace: 'Tollgate',
          Dimensions: [['service'], ['service', 'grant', 'error']],
          Metrics: [{ Name: 'TokenRefused', Unit: 'Count' }],
        },
      ],
    },
    service: 'svc-1',
    grant: 'client_credentials',
    error: 'invalid_client',
    TokenRefused: 1,
    requestId: 'req-1',
    clientId: 'tgc_1',
  });
  for (const set of document!._aws.CloudWatchMetrics[0]!.Dimensions) {
    for (const name of set) expect(typeof document![name]).toBe('string');
  }
});

test('EMF: a count without dimensions has the service set only; request fields that are not text are left out', () => {
  const [document] = documents((m) => m.count('ClientRegistered'));
  expect(document!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
  expect(document!.ClientRegistered).toBe(1);
  expect(document).not.toHaveProperty('coldStart');
});
