/**
 * Searching and filtering the admin lists (behaviour ADMIN-21): the list partition is read page
 * after page and each item kept or not, with a bound on reads per answer, so a rare match
 * answers a short page with a cursor in bounded time instead of reading the whole list.
 */
import type { ListRead, Page } from './ports';

/** Reads of the list per answer at most; behaviour ADMIN-21. */
export const maxReadsPerPage = 10;

/**
 * Items each read examines (behaviour ADMIN-21): a whole chunk, whatever the page still lacks,
 * so one answer examines up to 1,000 items; DynamoDB may return fewer (1 MB per query).
 */
export const itemsPerRead = 100;

/**
 * Each read examines a whole chunk; when it holds more matches than the page lacks, the page ends
 * at the last match kept, with that item's own cursor, so the items after it are read again by
 * the next page and none is skipped or repeated.
 */
export async function filteredPage<T>(
  read: (limit: number, cursor?: string) => Promise<ListRead<T>>,
  matches: (item: T) => boolean,
  page: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<T>> {
  const items: T[] = [];
  let cursor = page.cursor;
  for (let reads = 0; reads < maxReadsPerPage; reads++) {
    const got = await read(itemsPerRead, cursor);
    for (const [index, { item, after }] of got.entries.entries()) {
      if (!matches(item)) continue;
      items.push(item);
      if (items.length === page.limit) {
        // Ending on the read's last item, its cursor is the read's: absent at the list's end, so no empty page follows.
        const rest = index === got.entries.length - 1 ? got.next : after;
        return { items, ...(rest ? { next: rest } : {}) };
      }
    }
    cursor = got.next;
    if (!cursor) break;
  }
  return { items, ...(cursor ? { next: cursor } : {}) };
}

/** A read as the page it is when nothing is filtered: every item, and the read's cursor. */
export const pageOf = <T>(read: ListRead<T>): Page<T> => ({
  items: read.entries.map((entry) => entry.item),
  ...(read.next ? { next: read.next } : {}),
});

/** The search text as it is compared: trimmed, lower-cased; a name or address matches on any part. */
export const searchText = (search: string | undefined): string | undefined => {
  const text = search?.trim().toLowerCase();
  return text ? text : undefined;
};

export const containsText = (text: string, ...fields: (string | undefined)[]): boolean =>
  fields.some((field) => field?.toLowerCase().includes(text));

/** What could be a stored id (a client id, `usr_…`): worth one GetItem before the list is read. */
export const mayBeId = (text: string): boolean => /^[A-Za-z0-9_.:-]{1,200}$/.test(text);
