/**
 * A client's token activity for admins (behaviour LOG-1, LOG-2): every token request
 * and key exchange, success or failure with its real reason, filtered by time, request type
 * and outcome, newest first (behaviour LOG-16); an unknown client is 404, as on every client route.
 */
import { InvalidRequestError } from '../errors';
import { grantTypes } from '../grants/grant-types';
import type { ActivityRow } from '../model';
import { found } from './not-found';
import type { ActivityReader, ClientStore, Page } from './ports';

export const activityRequestTypes: readonly ActivityRow['requestType'][] = [...grantTypes, 'api key', 'unknown'];

export interface ActivityFilter {
  readonly from?: string;
  readonly to?: string;
  readonly requestType?: ActivityRow['requestType'];
  readonly success?: boolean;
}

/** Pages read per answer at most: a rare filter answers a short page with a cursor, in bounded time. */
const maxReadsPerPage = 10;

function isoTime(name: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new InvalidRequestError(`${name}: must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z.`);
  return new Date(ms).toISOString();
}

/**
 * The type and outcome filters apply to the rows of the time range as they are read: each read
 * asks for no more rows than the page still lacks, so every row read is either on the page or
 * filtered out, and the cursor of the last read loses nothing.
 */
export async function listClientActivity(
  deps: { activity: ActivityReader; clients: Pick<ClientStore, 'get'> },
  clientId: string,
  filter: ActivityFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<ActivityRow>> {
  // Behaviour LOG-16: rows outlive their deleted client, but the route names a client; ask for one that exists.
  found(await deps.clients.get(clientId), 'client', clientId);
  const from = filter.from ? isoTime('from', filter.from) : undefined;
  const to = filter.to ? isoTime('to', filter.to) : undefined;
  if (from && to && from > to) throw new InvalidRequestError('from: must not be later than to.');
  const matches = (row: ActivityRow) =>
    (filter.requestType === undefined || row.requestType === filter.requestType) &&
    (filter.success === undefined || row.success === filter.success);
  const items: ActivityRow[] = [];
  let cursor = page.cursor;
  for (let reads = 0; reads < maxReadsPerPage && items.length < page.limit; reads++) {
    const read = await deps.activity.activityPage(clientId, {
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      limit: page.limit - items.length,
      ...(cursor ? { cursor } : {}),
    });
    items.push(...read.items.filter(matches));
    cursor = read.next;
    if (!cursor) break;
  }
  return { items, ...(cursor ? { next: cursor } : {}) };
}
