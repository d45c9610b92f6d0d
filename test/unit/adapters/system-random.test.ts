/** Ids and secrets come from node:crypto's CSPRNG, one fresh buffer per value (lambdas/adapters/system.ts). */
import { cryptoRandom } from '../../../lambdas/adapters/system';

test('random bytes come in the asked length, differ from draw to draw, and share no memory with another draw', () => {
  const draws = Array.from({ length: 1000 }, () => cryptoRandom.bytes(10));
  for (const draw of draws) expect(draw).toHaveLength(10);
  const distinct = new Set(draws.map((d) => Buffer.from(d).toString('hex')));
  expect(distinct.size).toBe(draws.length);
  // Each draw owns its whole memory: not a view into a pool that a later draw writes into.
  for (const draw of draws) expect(draw.buffer.byteLength).toBe(10);
  expect(new Set(draws.map((d) => d.buffer)).size).toBe(draws.length);
  const first = Buffer.from(draws[0]!).toString('hex');
  cryptoRandom.bytes(4096);
  expect(Buffer.from(draws[0]!).toString('hex')).toBe(first);
});

test('a large draw is served whole', () => {
  const big = cryptoRandom.bytes(10_000);
  expect(big).toHaveLength(10_000);
  expect(new Set(big).size).toBeGreaterThan(200); // not a zero-filled or constant buffer
});
