import { type CountedRecord, rollUp } from '../../../lambdas/core/admin/statistics-rollup';

const service = { kind: 'service' } as const;
const row = (success: boolean, clientId?: string): CountedRecord => ({
  kind: 'token-activity',
  row: { requestType: 'client_credentials', success, startedAt: '2026-11-26T13:05:00.000Z', ...(clientId ? { clientId } : {}) },
});
const key = (fields: { pending?: boolean; expiresAt?: string; revokedAt?: string } = {}): CountedRecord => ({
  kind: 'api-key',
  key: {
    pending: fields.pending ?? false,
    ...(fields.expiresAt ? { expiresAt: fields.expiresAt } : {}),
    ...(fields.revokedAt ? { revokedAt: fields.revokedAt } : {}),
  },
});
const tokens = (scope: object, outcome: 'issued' | 'refused', by: number) => ({
  counter: { kind: 'tokens', scope, hour: '2026-11-26T13', requestType: 'client_credentials', outcome },
  by,
});

describe('statistics rollup (behaviour LOG-10, LOG-11)', () => {
  it('LOG-10: a new activity row counts once for the service and once for its client, in the hour it started', () => {
    expect(rollUp([{ after: row(true, 'tgc_a') }])).toEqual([
      tokens(service, 'issued', 1),
      tokens({ kind: 'client', clientId: 'tgc_a' }, 'issued', 1),
    ]);
  });

  it('LOG-10: a row with no client counts under unknown', () => {
    expect(rollUp([{ after: row(false) }])).toContainEqual(tokens({ kind: 'client', clientId: 'unknown' }, 'refused', 1));
  });

  it('LOG-10: a failure row replacing a half-landed success of the same attempt moves the count from issued to refused', () => {
    const deltas = rollUp([{ after: row(true, 'tgc_a') }, { before: row(true, 'tgc_a'), after: row(false, 'tgc_a') }]);
    expect(deltas).toEqual([tokens(service, 'refused', 1), tokens({ kind: 'client', clientId: 'tgc_a' }, 'refused', 1)]);
  });

  it('LOG-10: an activity row removed by its TTL changes nothing', () => {
    expect(rollUp([{ before: row(true, 'tgc_a') }])).toEqual([]);
  });

  it('LOG-10: deltas of one batch are summed per counter', () => {
    expect(rollUp([{ after: row(true, 'tgc_a') }, { after: row(true, 'tgc_b') }, { after: row(true, 'tgc_a') }])).toEqual([
      tokens(service, 'issued', 3),
      tokens({ kind: 'client', clientId: 'tgc_a' }, 'issued', 2),
      tokens({ kind: 'client', clientId: 'tgc_b' }, 'issued', 1),
    ]);
  });

  it('LOG-11: clients count by registration type; a change of the record counts nothing; a deletion takes it back', () => {
    const dynamic: CountedRecord = { kind: 'client', registrationType: 'dynamic' };
    expect(rollUp([{ after: dynamic }])).toEqual([{ counter: { kind: 'clients', registrationType: 'dynamic' }, by: 1 }]);
    expect(rollUp([{ before: dynamic, after: dynamic }])).toEqual([]);
    expect(rollUp([{ before: { kind: 'client', registrationType: 'static' } }])).toEqual([
      { counter: { kind: 'clients', registrationType: 'static' }, by: -1 },
    ]);
  });

  it('LOG-11: users count from their creation to their deletion', () => {
    expect(rollUp([{ after: { kind: 'user' } }, { after: { kind: 'user' } }, { before: { kind: 'user' } }])).toEqual([
      { counter: { kind: 'users' }, by: 1 },
    ]);
  });

  it('LOG-11: a pending key counts nothing; its activation counts it under its expiry day', () => {
    const expiresAt = '2026-12-06T10:00:00.000Z';
    expect(rollUp([{ after: key({ pending: true, expiresAt }) }])).toEqual([]);
    expect(rollUp([{ before: key({ pending: true, expiresAt }), after: key({ expiresAt }) }])).toEqual([
      { counter: { kind: 'api-keys', expiryDay: '2026-12-06' }, by: 1 },
    ]);
  });

  it('LOG-11: a key without expiry counts as such; its revocation takes it back', () => {
    expect(rollUp([{ before: key({ pending: true }), after: key() }])).toEqual([{ counter: { kind: 'api-keys' }, by: 1 }]);
    expect(rollUp([{ before: key(), after: key({ revokedAt: '2026-11-26T13:00:00.000Z' }) }])).toEqual([
      { counter: { kind: 'api-keys' }, by: -1 },
    ]);
  });

  it('LOG-11: a revoked key removed by TTL takes nothing back; an unrevoked one leaves its expiry day', () => {
    expect(rollUp([{ before: key({ revokedAt: '2026-01-01T00:00:00.000Z' }) }])).toEqual([]);
    expect(rollUp([{ before: key({ expiresAt: '2026-01-02T00:00:00.000Z' }) }])).toEqual([
      { counter: { kind: 'api-keys', expiryDay: '2026-01-02' }, by: -1 },
    ]);
  });
});
