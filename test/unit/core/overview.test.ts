/**
 * The overview's sums (behaviour DASH-7, DASH-8): the 24-hour window is the 24 hours ending with
 * the current one, the 7-day window the 7 UTC days ending today; both come from one read of the
 * hourly counts; a request type with no request shows 0.
 */
import { serviceOverview, tokenActivity } from '../../../lambdas/core/admin/overview';
import { type SigningKeyTimes, signingKeyStatus } from '../../../lambdas/core/admin/signing-key';
import type { HourlyTokenCounts, ServiceCounts, TokenStatsReader, TokenStatsScope } from '../../../lambdas/core/admin/token-stats';

const now = Date.parse('2026-11-26T13:25:00Z');

/** Every hour the reader holds, whatever the range: the windows must drop what they do not cover. */
const hours: HourlyTokenCounts[] = [
  { hour: '2026-11-19T23', counts: { client_credentials: { issued: 100, refused: 100 } } },
  { hour: '2026-11-20T00', counts: { 'api key': { issued: 0, refused: 4 } } },
  { hour: '2026-11-25T13', counts: { refresh_token: { issued: 5, refused: 0 } } },
  { hour: '2026-11-25T14', counts: { authorization_code: { issued: 2, refused: 0 } } },
  { hour: '2026-11-26T10', counts: { unknown: { issued: 0, refused: 2 } } },
  { hour: '2026-11-26T13', counts: { client_credentials: { issued: 3, refused: 1 } } },
  { hour: '2026-11-26T14', counts: { client_credentials: { issued: 50, refused: 50 } } },
];

function reader() {
  const calls: [TokenStatsScope, string, string][] = [];
  const stats: TokenStatsReader = {
    hourly: async (scope, from, to) => {
      calls.push([scope, from, to]);
      return hours;
    },
  };
  return { stats, calls };
}

const totalsOf = (rows: readonly { requestType: string; issued: number; refused: number }[]) =>
  Object.fromEntries(rows.map(({ requestType, issued, refused }) => [requestType, [issued, refused]]));

describe('token activity windows (behaviour DASH-7)', () => {
  it('reads the hours once, from the first of the 7 days to the end of the current hour', async () => {
    const { stats, calls } = reader();
    await tokenActivity(stats, { kind: 'client', clientId: 'c1' }, now);
    expect(calls).toEqual([[{ kind: 'client', clientId: 'c1' }, '2026-11-20T00', '2026-11-26T14']]);
  });

  it('the 24-hour window sums the 24 hours ending with the current one, by hour', async () => {
    const { lastDay } = await tokenActivity(reader().stats, { kind: 'service' }, now);
    expect(lastDay.buckets).toHaveLength(24);
    expect(lastDay.buckets[0]).toEqual({ start: '2026-11-25T14', issued: 2, refused: 0 });
    expect(lastDay.buckets[23]).toEqual({ start: '2026-11-26T13', issued: 3, refused: 1 });
    expect(lastDay.total).toEqual({ issued: 5, refused: 3 });
  });

  it('the 7-day window sums the 7 UTC days ending today, by day', async () => {
    const { lastWeek } = await tokenActivity(reader().stats, { kind: 'service' }, now);
    expect(lastWeek.buckets.map((b) => [b.start, b.issued, b.refused])).toEqual([
      ['2026-11-20', 0, 4],
      ['2026-11-21', 0, 0],
      ['2026-11-22', 0, 0],
      ['2026-11-23', 0, 0],
      ['2026-11-24', 0, 0],
      ['2026-11-25', 7, 0],
      ['2026-11-26', 3, 3],
    ]);
    expect(lastWeek.total).toEqual({ issued: 10, refused: 7 });
  });

  it('every grant type and the API-key exchange are listed, 0 when absent; unknown only when it has requests', async () => {
    const { lastDay, lastWeek } = await tokenActivity(reader().stats, { kind: 'service' }, now);
    expect(totalsOf(lastDay.byRequestType)).toEqual({
      authorization_code: [2, 0],
      refresh_token: [0, 0],
      client_credentials: [3, 1],
      'urn:ietf:params:oauth:grant-type:jwt-bearer': [0, 0],
      'api key': [0, 0],
      unknown: [0, 2],
    });
    expect(totalsOf(lastWeek.byRequestType)).toMatchObject({ refresh_token: [5, 0], 'api key': [0, 4], client_credentials: [3, 1] });
    const quiet = await tokenActivity({ hourly: async () => [] }, { kind: 'service' }, now);
    expect(quiet.lastDay.byRequestType.map((row) => row.requestType)).not.toContain('unknown');
    expect(quiet.lastWeek.total).toEqual({ issued: 0, refused: 0 });
  });

  it('just after midnight UTC, today is the last of the 7 days and the 24 hours reach into yesterday', async () => {
    const { stats, calls } = reader();
    const { lastDay, lastWeek } = await tokenActivity(stats, { kind: 'service' }, Date.parse('2026-11-27T00:05:00Z'));
    expect(calls[0]!.slice(1)).toEqual(['2026-11-21T00', '2026-11-27T01']);
    expect(lastWeek.buckets.at(-1)!.start).toBe('2026-11-27');
    expect(lastDay.buckets[0]!.start).toBe('2026-11-26T01');
  });
});

describe('the overview (behaviour DASH-7)', () => {
  it('reads the counts as of today (UTC) beside the service-wide activity', async () => {
    const counts: ServiceCounts = { clients: { static: 3, dynamic: 4 }, users: 5, activeApiKeys: 6, apiKeysExpiringSoon: 1 };
    const days: string[] = [];
    const { stats, calls } = reader();
    const overview = await serviceOverview(
      {
        tokenStats: stats,
        serviceCounts: {
          counts: async (today) => {
            days.push(today);
            return counts;
          },
        },
        signingKeyTimes: { current: async () => undefined },
      },
      now,
    );
    expect(days).toEqual(['2026-11-26']);
    expect(calls[0]![0]).toEqual({ kind: 'service' });
    expect(overview.counts).toBe(counts);
    expect(overview.activity.lastDay.total).toEqual({ issued: 5, refused: 3 });
    expect(overview.signingKey).toBeUndefined();
  });
});

describe("the signing key's age and next rotation (behaviour DASH-7)", () => {
  const times: SigningKeyTimes = {
    currentKid: 'kid-1',
    activatedAt: '2026-11-01T03:41:00.000Z',
    rotateAfterDays: 30,
    publishLeadMs: 20 * 60_000,
    recordedAt: '2026-11-26T03:41:05.000Z',
  };

  it('the age in whole days; the next key is due to be published when the current one is rotateAfterDays old', () => {
    expect(signingKeyStatus(times, now)).toEqual({
      kid: 'kid-1',
      activatedAt: '2026-11-01T03:41:00.000Z',
      ageDays: 25,
      next: { step: 'prepare', due: '2026-12-01T03:41:00.000Z' },
      recordedAt: '2026-11-26T03:41:05.000Z',
    });
  });

  it('with a key published and waiting, the next step is its activation once its publication lead is over', () => {
    const waiting = { ...times, pending: { kid: 'kid-2', publishedAt: '2026-11-26T03:41:00.000Z' } };
    expect(signingKeyStatus(waiting, now).next).toEqual({ step: 'activate', due: '2026-11-26T04:01:00.000Z', kid: 'kid-2' });
  });

  it('the overview carries the status once the rotation job recorded the times', async () => {
    const overview = await serviceOverview(
      {
        tokenStats: reader().stats,
        serviceCounts: { counts: async () => ({ clients: { static: 0, dynamic: 0 }, users: 0, activeApiKeys: 0, apiKeysExpiringSoon: 0 }) },
        signingKeyTimes: { current: async () => times },
      },
      now,
    );
    expect(overview.signingKey).toMatchObject({ kid: 'kid-1', ageDays: 25 });
  });
});
