/**
 * Searching and filtering the admin lists (behaviour ADMIN-21): the list partition is read page
 * after page and each item kept or not, with a bound on reads per answer, so a rare match
 * answers a short page with a cursor in bounded time instead of reading the whole list.
 */
import type { Page } from './ports';

/** Reads of the list per answer at most; behaviour ADMIN-21. */
export const maxReadsPerPage = 10;

/**
 * Each read asks for no more items than the page still lacks, so every item read is either on
 * the page or filtered out, and the cursor of the last read loses nothing and repeats nothing.
 */
export async function filteredPage<T>(
  read: (limit: number, cursor?: string) => Promise<Page<T>>,
  matches: (item: T) => boolean,
  page: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<T>> {
  const items: T[] = [];
  let cursor = page.cursor;
  for (let reads = 0; reads < maxReadsPerPage && items.length < page.limit; reads++) {
    const got = await read(page.limit - items.length, cursor);
    items.push(...got.items.filter(matches));
    cursor = got.next;
    if (!cursor) break;
  }
  return { items, ...(cursor ? { next: cursor } : {}) };
}

/** The search text as it is compared: trimmed, lower-cased; a name or address matches on any part. */
export const searchText = (search: string | undefined): string | undefined => {
  const text = search?.trim().toLowerCase();
  return text ? text : undefined;
};

export const containsText = (text: string, ...fields: (string | undefined)[]): boolean =>
  fields.some((field) => field?.toLowerCase().includes(text));

/** What could be a stored id (a client id, `usr_…`): worth one GetItem before the list is read. */
export const mayBeId = (text: string): boolean => /^[A-Za-z0-9_.:-]{1,200}$/.test(text);
