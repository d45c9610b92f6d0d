/**
 * Behaviour IAM-3 for the functions that no API Gateway event starts: the scheduled jobs and the
 * first-admin custom resource label their requests with the declaration they are granted by
 * (lambdas/routes.ts `jobs`, `adminSeed`), so the recorder in every test file
 * (test/support/record-storage-access.ts) checks what they send as it checks a route's requests.
 */
import { handler as pruneJob } from '../../lambdas/jobs/prune-registration-counters';
import { runInRequest } from '../../lambdas/http/request-context';
import { adminSeed, jobs } from '../../lambdas/routes';
import { granteeOfRequest, refusal } from '../support/record-storage-access';

const prune = jobs.find((job) => job.name === 'PruneRegistrationCounters')!;

describe('behaviour IAM-3: requests of jobs and of the admin seed are checked against their declarations', () => {
  test('the prune job runs labelled with its job, so its requests are attributed to its declaration', async () => {
    const { getStorage } = await import('../../lambdas/wiring/storage');
    const seen: unknown[] = [];
    const { db } = getStorage();
    const send = db.send.bind(db);
    db.send = ((command: never) => {
      seen.push(granteeOfRequest()?.name);
      return send(command);
    }) as typeof db.send;
    try {
      await pruneJob();
    } finally {
      db.send = send;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['PruneRegistrationCounters']));
  });

  test('outside a route or a job nothing is attributed; a job label no declaration names is itself refused', () => {
    expect(granteeOfRequest()).toBeUndefined();
    expect(runInRequest({ job: 'AdminBootstrap' }, () => granteeOfRequest())).toBe(adminSeed);
  });

  test('a job may send only what it declares: the prune job may delete counters, not write them or touch users', () => {
    const counter = { table: 'ephemeral', key: 'DCRRATE#2026-01-01#203.0.113.7' } as const;
    expect(refusal(prune, { ...counter, action: 'DeleteItem' })).toBeUndefined();
    expect(refusal(prune, { ...counter, action: 'PutItem' })).toMatch(/declares registrationCounter/);
    expect(refusal(prune, { table: 'main', key: 'USER#usr_x', action: 'DeleteItem' })).toMatch(/declares user/);
  });

  test('the admin seed may put the records it seeds, and nothing else', () => {
    expect(refusal(adminSeed, { table: 'main', key: 'USER#usr_x', action: 'PutItem' })).toBeUndefined();
    expect(refusal(adminSeed, { table: 'main', key: 'COPY3#tgc_x', action: 'PutItem' })).toBeUndefined();
    expect(refusal(adminSeed, { table: 'main', key: 'USER#usr_x', action: 'UpdateItem' })).toMatch(/declares user/);
    expect(refusal(adminSeed, { table: 'ephemeral', key: 'SESSION#d', action: 'PutItem' })).toMatch(/declares session/);
  });
});
