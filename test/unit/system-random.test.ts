/** The CSPRNG is read in batches (lambdas/adapters/system.ts): every byte handed out once, copies only. */
import { cryptoRandom } from '../../lambdas/adapters/system';

test('random bytes come in the asked length, never repeat a batch position, and are the caller’s own copy', () => {
  const draws = Array.from({ length: 1000 }, () => cryptoRandom.bytes(10)); // crosses a batch refill
  for (const draw of draws) expect(draw).toHaveLength(10);
  const distinct = new Set(draws.map((d) => Buffer.from(d).toString('hex')));
  expect(distinct.size).toBe(draws.length);
  const first = Buffer.from(draws[0]!).toString('hex');
  cryptoRandom.bytes(4096); // whatever the batch does next, an earlier draw does not change
  expect(Buffer.from(draws[0]!).toString('hex')).toBe(first);
});

test('a draw larger than a batch is served whole', () => {
  const big = cryptoRandom.bytes(10_000);
  expect(big).toHaveLength(10_000);
  expect(new Set(big).size).toBeGreaterThan(200); // not a zero-filled or constant buffer
});
