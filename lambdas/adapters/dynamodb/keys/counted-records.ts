/**
 * The records the statistics rollup counts, by the shape of their keys (behaviour LOG-10, LOG-11):
 * the stream event sources' filters (lib/statistics-rollup.ts) and the local stream poller are
 * built from these, and the rollup reads records by the same shapes
 * (statistics-stream.ts `countedRecordOf`). Plain data, so the construct imports no SDK with it.
 * A client's read copies (`COPY?#`) share the record's sort key but not its partition prefix.
 */
export const countedKeys = {
  // A token row removed by its TTL counts nothing (behaviour LOG-10): its removal invokes nothing either.
  activity: [{ pkPrefix: 'ACTIVITY#', eventNames: ['INSERT', 'MODIFY'] }],
  main: [
    { pkPrefix: 'CLIENT#', sk: 'CLIENT' },
    { pkPrefix: 'USER#', sk: 'USER' },
    { pkPrefix: 'APIKEY#', sk: 'APIKEY' },
  ],
} as const;
