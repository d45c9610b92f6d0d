/**
 * The rollup behind the overview's numbers (behaviour LOG-10, LOG-11): from the changes the tables'
 * streams report, each as the record before and after, to the counters' deltas. A change adds
 * what the record counts for now and takes back what it counted for before, so an insert, a change
 * and a deletion are one rule, and a batch's deltas are summed per counter before anything is written.
 */
import type { ActivityRow, ApiKey, RegistrationType } from '../model';
import type { TokenRequestType, TokenStatsScope } from './token-stats';
import { hourOf } from './token-stats';

/** A stored record the counters follow, as read from a stream image. */
export type CountedRecord =
  | { readonly kind: 'token-activity'; readonly row: Pick<ActivityRow, 'requestType' | 'success' | 'clientId' | 'startedAt'> }
  | { readonly kind: 'client'; readonly registrationType: RegistrationType }
  | { readonly kind: 'user' }
  | { readonly kind: 'api-key'; readonly key: Pick<ApiKey, 'expiresAt' | 'revokedAt'> & { readonly pending: boolean } };

/** One stream record: the record before (absent on an insert) and after (absent on a removal). */
export interface RecordChange {
  readonly before?: CountedRecord;
  readonly after?: CountedRecord;
}

export type StatisticsCounter =
  | {
      readonly kind: 'tokens';
      readonly scope: TokenStatsScope;
      /** `yyyy-mm-ddThh`, UTC. */
      readonly hour: string;
      readonly requestType: TokenRequestType;
      readonly outcome: 'issued' | 'refused';
    }
  | { readonly kind: 'clients'; readonly registrationType: RegistrationType }
  | { readonly kind: 'users' }
  /** Active API keys, under the UTC day they expire (`yyyy-mm-dd`), or without expiry. */
  | { readonly kind: 'api-keys'; readonly expiryDay?: string };

export interface CounterDelta {
  readonly counter: StatisticsCounter;
  readonly by: number;
}

function countersOf(record: CountedRecord | undefined): StatisticsCounter[] {
  if (!record) return [];
  switch (record.kind) {
    case 'token-activity': {
      const { row } = record;
      const hour = hourOf(row.startedAt);
      const outcome = row.success ? 'issued' : 'refused';
      // Behaviour LOG-10: a row with no client read counts under `unknown`, as its activity partition does.
      const clientId = row.clientId ?? 'unknown';
      return [
        { kind: 'tokens', scope: { kind: 'service' }, hour, requestType: row.requestType, outcome },
        { kind: 'tokens', scope: { kind: 'client', clientId }, hour, requestType: row.requestType, outcome },
      ];
    }
    case 'client':
      return [{ kind: 'clients', registrationType: record.registrationType }];
    case 'user':
      return [{ kind: 'users' }];
    case 'api-key': {
      // Behaviour LOG-11: a key counts from its activation (KEY-15) until its revocation.
      const { key } = record;
      if (key.pending || key.revokedAt !== undefined) return [];
      return [{ kind: 'api-keys', ...(key.expiresAt !== undefined ? { expiryDay: key.expiresAt.slice(0, 10) } : {}) }];
    }
  }
}

/** A counter's identity, so a batch's deltas to one counter are summed into one. */
export function counterId(counter: StatisticsCounter): string {
  switch (counter.kind) {
    case 'tokens':
      return `tokens|${counter.scope.kind === 'service' ? '' : counter.scope.clientId}|${counter.hour}|${counter.requestType}|${counter.outcome}`;
    case 'clients':
      return `clients|${counter.registrationType}`;
    case 'users':
      return 'users';
    case 'api-keys':
      return `api-keys|${counter.expiryDay ?? ''}`;
  }
}

/**
 * The summed deltas of a batch of changes, zero sums left out. A token activity row that leaves
 * the table (its TTL, after 90 days) changes nothing: a request that happened stays counted
 * (behaviour LOG-10). A failure row replacing a half-landed success of the same attempt (LOG-1)
 * moves the count from issued to refused.
 */
export function rollUp(changes: readonly RecordChange[]): CounterDelta[] {
  const sums = new Map<string, { counter: StatisticsCounter; by: number }>();
  const add = (counter: StatisticsCounter, by: number) => {
    const id = counterId(counter);
    const entry = sums.get(id) ?? { counter, by: 0 };
    entry.by += by;
    sums.set(id, entry);
  };
  for (const change of changes) {
    const tokenRowRemoved = change.after === undefined && change.before?.kind === 'token-activity';
    if (tokenRowRemoved) continue;
    for (const counter of countersOf(change.after)) add(counter, 1);
    for (const counter of countersOf(change.before)) add(counter, -1);
  }
  return [...sums.values()].filter((delta) => delta.by !== 0);
}
