/**
 * How long issuance may trust a scope catalog it read (lambdas/core/cache.ts catalogNames,
 * behaviour ADMIN-18): a deleted scope at most the minute the listed catalog is kept; a scope
 * created a moment ago at once (looked up by itself); a name that stays missing is looked up at
 * most once a second.
 */
import { catalogNames } from '../../../lambdas/core/cache';

function catalog(initial: string[]) {
  const stored = new Set(initial);
  let now = 1_000_000;
  const calls = { list: 0, lookup: 0 };
  const names = catalogNames(
    async () => {
      calls.list++;
      return [...stored].map((name) => ({ name }));
    },
    async (asked) => {
      calls.lookup++;
      return new Set(asked.filter((name) => stored.has(name)));
    },
    { now: () => now },
    60_000,
    1_000,
  );
  return { stored, names, calls, advance: (ms: number) => (now += ms), back: (ms: number) => (now -= ms) };
}

it('a deleted scope is trusted until the kept list is a minute old, never longer', async () => {
  const c = catalog(['files:write']);
  expect((await c.names(['files:write'])).has('files:write')).toBe(true);
  c.stored.delete('files:write');
  c.advance(59_999);
  expect((await c.names(['files:write'])).has('files:write')).toBe(true);
  c.advance(1);
  expect((await c.names(['files:write'])).has('files:write')).toBe(false);
});

it('a scope created after the list was kept is found at once by its own lookup', async () => {
  const c = catalog([]);
  await c.names([]);
  c.stored.add('files:read');
  expect((await c.names(['files:read'])).has('files:read')).toBe(true);
  expect(c.calls).toEqual({ list: 1, lookup: 1 });
  expect((await c.names(['files:read'])).has('files:read')).toBe(true);
  expect(c.calls.lookup).toBe(1);
});

it('a name that stays missing costs one lookup a second at most', async () => {
  const c = catalog([]);
  for (let i = 0; i < 10; i++) await c.names(['gone']);
  expect(c.calls.lookup).toBe(1);
  c.advance(1_000);
  await c.names(['gone']);
  expect(c.calls.lookup).toBe(2);
});

it('a clock set back does not stretch the kept list', async () => {
  const c = catalog(['files:write']);
  await c.names([]);
  c.stored.delete('files:write');
  c.back(5_000);
  expect((await c.names(['files:write'])).has('files:write')).toBe(false);
  expect(c.calls.list).toBe(2);
});
