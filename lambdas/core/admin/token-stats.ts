/**
 * Token requests counted per hour, per request type and outcome: what the dashboard's overview and
 * client page chart (behaviour DASH-7). The counts are rollups of the token activity rows (docs/storage-schema.md,
 * "Token statistics"), kept for the whole service and per client, so a page view reads at most one
 * item per hour shown instead of the rows themselves.
 */
import type { ActivityRow } from '../model';

export type TokenRequestType = ActivityRow['requestType'];

/** One hour's counts; a request type absent from `counts` had no request that hour. */
export interface HourlyTokenCounts {
  /** The hour's start, UTC, as `yyyy-mm-ddThh` (e.g. `2026-11-26T13`). */
  readonly hour: string;
  readonly counts: Readonly<Partial<Record<TokenRequestType, { readonly issued: number; readonly refused: number }>>>;
}

/** Whose requests: the whole service, or one client (`unknown` counts requests whose client was not read). */
export type TokenStatsScope = { readonly kind: 'service' } | { readonly kind: 'client'; readonly clientId: string };

export interface TokenStatsReader {
  /** The hours in [fromHour, toHour) that had any request, oldest first. */
  hourly(scope: TokenStatsScope, fromHour: string, toHour: string): Promise<readonly HourlyTokenCounts[]>;
}

/** The hour an ISO time falls in, as `yyyy-mm-ddThh`. */
export const hourOf = (isoTime: string): string => isoTime.slice(0, 13);

/**
 * What the overview counts (behaviour DASH-7), kept as counters by the rollup of the main table's
 * stream (docs/storage-schema.md, "Token statistics"), so a page view reads a few items, never a list.
 */
export interface ServiceCounts {
  readonly clients: { readonly static: number; readonly dynamic: number };
  readonly users: number;
  /** API keys neither revoked nor expiring before `today` (by UTC day: one expiring today counts). */
  readonly activeApiKeys: number;
  /** Active API keys expiring on `today` or one of the 29 UTC days after it. */
  readonly apiKeysExpiringSoon: number;
}

export interface ServiceCountsReader {
  /** The counts as of `today` (`yyyy-mm-dd`, UTC). */
  counts(today: string): Promise<ServiceCounts>;
}
