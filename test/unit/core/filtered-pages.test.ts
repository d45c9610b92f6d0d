/**
 * The filtered read of the admin lists (behaviour ADMIN-21): whole chunks per read, a page that
 * ends inside a chunk resumes right after its last item, at most 10 reads per answer.
 */
import { filteredPage, itemsPerRead, maxReadsPerPage } from '../../../lambdas/core/admin/filtered-pages';
import type { ListRead } from '../../../lambdas/core/admin/ports';

/** A list of the numbers 0..length-1 whose cursor is the next index, counting its reads. */
function numbers(length: number) {
  const reads: { limit: number; cursor?: string }[] = [];
  const read = async (limit: number, cursor?: string): Promise<ListRead<number>> => {
    reads.push({ limit, ...(cursor ? { cursor } : {}) });
    const from = cursor ? Number(cursor) : 0;
    const to = Math.min(length, from + limit);
    const entries = Array.from({ length: to - from }, (_, i) => ({ item: from + i, after: String(from + i + 1) }));
    return { entries, ...(to < length ? { next: String(to) } : {}) };
  };
  return { read, reads };
}

describe('behaviour ADMIN-21: filteredPage', () => {
  it('examines a whole chunk per read, whatever the page lacks: 3 rare matches among 260 in one answer', async () => {
    const list = numbers(260);
    const page = await filteredPage(list.read, (n) => [5, 130, 255].includes(n), { limit: 25 });
    expect(page).toEqual({ items: [5, 130, 255] });
    expect(list.reads.map((read) => read.limit)).toEqual([itemsPerRead, itemsPerRead, itemsPerRead]);
  });

  it('a page filled inside a chunk ends at its last item, and the next page starts right after it', async () => {
    const list = numbers(300);
    const even = (n: number) => n % 2 === 0;
    const first = await filteredPage(list.read, even, { limit: 10 });
    expect(first).toEqual({ items: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18], next: '19' });
    const second = await filteredPage(list.read, even, { limit: 10, cursor: first.next });
    expect(second.items[0]).toBe(20);
  });

  it('pages every match exactly once, in order, across pages', async () => {
    const list = numbers(1000);
    const matches = (n: number) => n % 7 === 3;
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await filteredPage(list.read, matches, { limit: 4, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items);
      cursor = page.next;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, n) => n).filter(matches));
  });

  it('a page filled by the last item of the list has no cursor (no empty page follows)', async () => {
    const list = numbers(50);
    expect(await filteredPage(list.read, (n) => n === 49 || n === 10, { limit: 2 })).toEqual({ items: [10, 49] });
  });

  it('stops after 10 reads: nothing matching answers an empty page with a cursor where it stopped', async () => {
    const list = numbers(5000);
    const page = await filteredPage(list.read, () => false, { limit: 25 });
    expect(page).toEqual({ items: [], next: String(maxReadsPerPage * itemsPerRead) });
    expect(list.reads).toHaveLength(maxReadsPerPage);
  });
});
