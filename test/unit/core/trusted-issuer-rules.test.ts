/** Workload rules (behaviour TRUST-6) and the per-container lookup cache (behaviour TRUST-2). */
import { cachedTrustedIssuerLookup } from '../../../lambdas/core/trusted-issuers/lookup-cache';
import type { TrustedIssuer } from '../../../lambdas/core/trusted-issuers/model';
import {
  isSubjectPattern,
  matchingWorkloadRule,
  subjectMatches,
  workloadRuleMatches,
} from '../../../lambdas/core/trusted-issuers/subject-pattern';

describe('behaviour TRUST-6: a rule’s subject pattern', () => {
  test.each([
    ['system:serviceaccount:ci:deployer', 'system:serviceaccount:ci:deployer', true],
    ['system:serviceaccount:ci:deployer', 'system:serviceaccount:ci:deployer2', false],
    ['system:serviceaccount:ci:*', 'system:serviceaccount:ci:deployer', true],
    ['system:serviceaccount:ci:*', 'system:serviceaccount:ci:', false],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/api:ref:refs/heads/main', true],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/api/x:ref:refs/heads/main', false],
    ['repo:acme/api:**', 'repo:acme/api:ref:refs/heads/main', true],
    ['spiffe://prod.example/ns/*/sa/*', 'spiffe://prod.example/ns/web/sa/api', true],
    ['spiffe://prod.example/ns/*/sa/*', 'spiffe://prod.example/ns/web/extra/sa/api', false],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
  ])('%s against %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });

  test('the admin API refuses an empty pattern, one of three or more `*` in a row, and one over 512 characters', () => {
    expect(isSubjectPattern('repo:acme/**')).toBe(true);
    expect(isSubjectPattern('')).toBe(false);
    expect(isSubjectPattern('a***')).toBe(false);
    expect(isSubjectPattern('a'.repeat(513))).toBe(false);
  });

  test('other claims match by string equality only; the first matching rule decides', () => {
    const rules = [
      { subject: 'job:*', claims: { environment: 'production' }, scopes: ['deploy'], resources: [] },
      { subject: 'job:*', scopes: ['read'], resources: [] },
    ];
    expect(matchingWorkloadRule(rules, { sub: 'job:build', environment: 'production' })?.scopes).toEqual(['deploy']);
    expect(matchingWorkloadRule(rules, { sub: 'job:build', environment: 'staging' })?.scopes).toEqual(['read']);
    expect(workloadRuleMatches({ subject: 'x', claims: { n: '1' }, scopes: [], resources: [] }, { sub: 'x', n: 1 })).toBe(false);
    expect(workloadRuleMatches({ subject: 'x', scopes: [], resources: [] }, { sub: 7 })).toBe(false);
    expect(matchingWorkloadRule(undefined, { sub: 'x' })).toBeUndefined();
  });
});

describe('behaviour TRUST-2: a container remembers lookups 30 s when found, 1 s when absent', () => {
  const trusted = { trustedIssuerId: 'tri_x', issuer: 'https://idp.example' } as TrustedIssuer;

  test('a found issuer is read again only after 30 s; an absent one after 1 s; a failed read is not kept', async () => {
    let now = 0;
    let stored: TrustedIssuer | undefined = trusted;
    let reads = 0;
    let failing = false;
    const lookup = cachedTrustedIssuerLookup(
      {
        idJagIssuer: async () => {
          reads++;
          if (failing) throw new Error('down');
          return stored;
        },
        workloadIssuer: async () => undefined,
      },
      { now: () => now },
    );
    expect(await lookup.idJagIssuer('env', 'https://idp.example')).toBe(trusted);
    stored = undefined;
    now = 29_999;
    expect(await lookup.idJagIssuer('env', 'https://idp.example')).toBe(trusted);
    now = 30_000;
    expect(await lookup.idJagIssuer('env', 'https://idp.example')).toBeUndefined();
    stored = trusted;
    now = 30_999;
    expect(await lookup.idJagIssuer('env', 'https://idp.example')).toBeUndefined();
    now = 31_000;
    expect(await lookup.idJagIssuer('env', 'https://idp.example')).toBe(trusted);
    expect(reads).toBe(3);
    failing = true;
    await expect(lookup.idJagIssuer('other', 'https://idp.example')).rejects.toThrow('down');
    failing = false;
    expect(await lookup.idJagIssuer('other', 'https://idp.example')).toBe(trusted);
  });
});

test('behaviour TRUST-6: a pattern of many wildcards is matched in time linear in each (no regex backtracking)', () => {
  const started = Date.now();
  expect(subjectMatches('**a'.repeat(100), `${'a'.repeat(5000)}b`)).toBe(false);
  expect(Date.now() - started).toBeLessThan(2000);
});
