import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import {
  changesOf,
  countedRecordOf,
  hourlyStatsRetentionSeconds,
  itemUpdatesOf,
  requestTokenOf,
} from '../../../lambdas/adapters/dynamodb/statistics-stream';
import { rollUp } from '../../../lambdas/core/admin/statistics-rollup';

const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', old?: object, image?: object): DynamoDBRecord =>
  ({
    eventID: `${eventName}-${Math.random()}`,
    eventName,
    dynamodb: {
      ...(old ? { OldImage: marshall(old) } : {}),
      ...(image ? { NewImage: marshall(image) } : {}),
    },
  }) as DynamoDBRecord;

describe('the rollup reads the records it counts, by key (behaviour LOG-11)', () => {
  it('LOG-11: a client record counts; its read copies, sessions and audit entries do not', () => {
    expect(countedRecordOf({ pk: 'CLIENT#tgc_a', sk: 'CLIENT', registrationType: 'static' })).toEqual({
      kind: 'client',
      registrationType: 'static',
    });
    expect(countedRecordOf({ pk: 'COPY3#tgc_a', sk: 'CLIENT', registrationType: 'static' })).toBeUndefined();
    expect(countedRecordOf({ pk: 'USER#usr_1', sk: 'ENV#env_1' })).toBeUndefined();
    expect(countedRecordOf({ pk: 'SESSION#abc', sk: 'SESSION' })).toBeUndefined();
    expect(countedRecordOf({ pk: 'AUDIT#tgc_a', sk: '2026#x', type: 'client.create' })).toBeUndefined();
  });

  it('LOG-11: a user record counts, the user partition’s other items do not', () => {
    expect(countedRecordOf({ pk: 'USER#usr_1', sk: 'USER' })).toEqual({ kind: 'user' });
    expect(countedRecordOf({ pk: 'USER#usr_1', sk: 'APIKEY#tgc_a#2026#k' })).toBeUndefined();
  });

  it('LOG-11: an API key record is read with its pending, expiry and revocation', () => {
    expect(countedRecordOf({ pk: 'APIKEY#k1', sk: 'APIKEY', pending: true, expiresAt: '2026-12-01T00:00:00.000Z' })).toEqual({
      kind: 'api-key',
      key: { pending: true, expiresAt: '2026-12-01T00:00:00.000Z' },
    });
  });

  it('LOG-10: stream images (DynamoDB JSON) become changes: a success row then its failure replacement', () => {
    const success = {
      pk: 'ACTIVITY#tgc_a#03',
      sk: '2026-11-26T13:05:00.000Z#a1',
      requestType: 'client_credentials',
      success: true,
      clientId: 'tgc_a',
      startedAt: '2026-11-26T13:05:00.000Z',
    };
    const failure = { ...success, success: false };
    const deltas = rollUp(changesOf([record('INSERT', undefined, success), record('MODIFY', success, failure)]));
    expect(itemUpdatesOf(deltas)).toEqual([
      {
        key: { pk: 'STATS#CLIENT#tgc_a', sk: 'HOUR#2026-11-26T13' },
        add: { 'client_credentials#refused': 1 },
        ttl: Date.parse('2026-11-26T13:00:00Z') / 1000 + hourlyStatsRetentionSeconds,
      },
      {
        key: { pk: 'STATS#SERVICE', sk: 'HOUR#2026-11-26T13' },
        add: { 'client_credentials#refused': 1 },
        ttl: Date.parse('2026-11-26T13:00:00Z') / 1000 + hourlyStatsRetentionSeconds,
      },
    ]);
  });

  it('LOG-11: counters of one item are one update: clients, users and keys without expiry share STATS#COUNTS', () => {
    const updates = itemUpdatesOf(
      rollUp(
        changesOf([
          record('INSERT', undefined, { pk: 'CLIENT#tgc_a', sk: 'CLIENT', registrationType: 'dynamic' }),
          record('INSERT', undefined, { pk: 'USER#usr_1', sk: 'USER' }),
          record('MODIFY', { pk: 'APIKEY#k1', sk: 'APIKEY', pending: true }, { pk: 'APIKEY#k1', sk: 'APIKEY' }),
          record(
            'MODIFY',
            { pk: 'APIKEY#k2', sk: 'APIKEY', pending: true, expiresAt: '2026-12-06T10:00:00.000Z' },
            { pk: 'APIKEY#k2', sk: 'APIKEY', expiresAt: '2026-12-06T10:00:00.000Z' },
          ),
        ]),
      ),
    );
    expect(updates).toEqual([
      { key: { pk: 'STATS#COUNTS', sk: 'COUNTS' }, add: { 'clients#dynamic': 1, users: 1, 'apiKeys#noExpiry': 1 } },
      { key: { pk: 'STATS#KEYEXPIRY', sk: 'DAY#2026-12-06' }, add: { apiKeys: 1 }, ttl: Date.parse('2026-12-08T00:00:00Z') / 1000 },
    ]);
  });

  it('LOG-12: the request token is the same for the same batch, another for another, and fits DynamoDB’s 36 characters', () => {
    expect(requestTokenOf(['a', 'b'], 0)).toBe(requestTokenOf(['a', 'b'], 0));
    expect(requestTokenOf(['a', 'b'], 0)).not.toBe(requestTokenOf(['a', 'b'], 1));
    expect(requestTokenOf(['a', 'b'], 0)).not.toBe(requestTokenOf(['a'], 0));
    expect(requestTokenOf(['a'], 0)).toHaveLength(36);
  });
});
