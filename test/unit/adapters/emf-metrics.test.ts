/**
 * The metric documents Powertools Metrics writes for the Metrics port (lambdas/adapters/emf-metrics.ts),
 * read from stdout as CloudWatch receives them, follow AWS's embedded metric format specification:
 * every dimension a Dimensions set names, and every metric, is a top-level member; one document per count.
 */
import { createEmfMetrics } from '../../../lambdas/adapters/emf-metrics';
import type { LogFields, Logger, Metrics } from '../../../lambdas/core/ports';
import { ConfigError } from '../../../lambdas/config/settings';
import { getContainer, resetContainer } from '../../../lambdas/wiring/container';
import { outputLines } from '../../support/output-lines';

interface EmfDocument {
  readonly _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: unknown[] }[] };
  readonly [member: string]: unknown;
}

const warnings: string[] = [];
const log: Logger = { debug: () => undefined, info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined };

async function documents(count: (m: Metrics) => void, context: LogFields = { requestId: 'req-1', clientId: 'tgc_1', coldStart: true }) {
  const metrics = createEmfMetrics({ namespace: 'Tollgate', service: 'svc-1', context: () => context, log });
  const before = Date.now();
  const { lines } = await outputLines(async () => count(metrics));
  for (const line of lines as unknown as EmfDocument[]) {
    expect(line._aws.Timestamp).toBeGreaterThanOrEqual(before); // milliseconds since the epoch
    expect(line._aws.Timestamp).toBeLessThanOrEqual(Date.now());
    for (const set of line._aws.CloudWatchMetrics[0]!.Dimensions) {
      for (const name of set) expect(typeof line[name]).toBe('string');
    }
  }
  return lines as unknown as EmfDocument[];
}

beforeEach(() => {
  warnings.length = 0;
});

test('EMF: a count with dimensions is published under the service alone and with its dimensions, each a top-level member', async () => {
  const [document, ...rest] = await documents((m) => m.count('TokenRefused', { grant: 'client_credentials', error: 'invalid_client' }));
  expect(rest).toEqual([]);
  expect(document).toEqual({
    _aws: {
      Timestamp: expect.any(Number),
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
  expect(warnings).toEqual([]);
});

test('EMF: a count without dimensions has the service set only; request fields that are not text are left out', async () => {
  const [document] = await documents((m) => m.count('ClientRegistered'));
  expect(document!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
  expect(document!.ClientRegistered).toBe(1);
  expect(document).not.toHaveProperty('coldStart');
});

test('one document per count, published at once: a count’s dimensions do not carry over to the next', async () => {
  const docs = await documents((m) => {
    m.count('TokenRefused', { grant: 'client_credentials', error: 'invalid_client' });
    m.count('TokenRefused', { grant: 'unknown', error: 'unsupported_grant_type' });
    m.count('ClientRegistered');
  });
  expect(docs.map(({ _aws, ...members }) => members)).toEqual([
    { service: 'svc-1', grant: 'client_credentials', error: 'invalid_client', TokenRefused: 1, requestId: 'req-1', clientId: 'tgc_1' },
    { service: 'svc-1', grant: 'unknown', error: 'unsupported_grant_type', TokenRefused: 1, requestId: 'req-1', clientId: 'tgc_1' },
    { service: 'svc-1', ClientRegistered: 1, requestId: 'req-1', clientId: 'tgc_1' },
  ]);
  expect(docs[2]!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
});

test('a request field named like a dimension: the dimension wins, and Powertools’ warning goes to the log', async () => {
  const [document] = await documents((m) => m.count('TokenIssued', { grant: 'client_credentials' }), { grant: 'from-the-request' });
  expect(document!.grant).toBe('client_credentials');
  expect(warnings).toEqual([expect.stringContaining('"grant"')]);
});

describe('the switch POWERTOOLS_METRICS_DISABLED (lambdas/wiring/container.ts)', () => {
  const saved = { LOG_LEVEL: process.env.LOG_LEVEL, POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetContainer();
  });
  const countWith = async (value: string | undefined) => {
    process.env.LOG_LEVEL = 'info';
    if (value === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = value;
    resetContainer();
    const { lines } = await outputLines(async () => getContainer().metrics.count('ClientRegistered'));
    return lines;
  };

  test('unset or "false": the documents are written, under the default namespace and service', async () => {
    for (const value of [undefined, 'false']) {
      expect(await countWith(value)).toEqual([
        expect.objectContaining({
          _aws: expect.objectContaining({ CloudWatchMetrics: [expect.objectContaining({ Namespace: 'Tollgate' })] }),
          service: 'authorization-server',
          ClientRegistered: 1,
        }),
      ]);
    }
  });

  test('"true": nothing is written', async () => {
    expect(await countWith('true')).toEqual([]);
  });

  test('any other value is refused as configuration, not read two ways (Powertools would take "1" or "yes" as true)', async () => {
    for (const value of ['1', 'yes', 'TRUE', '']) {
      await expect(countWith(value)).rejects.toThrow(ConfigError);
    }
  });
});
