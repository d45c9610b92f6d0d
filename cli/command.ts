/** What a command is: its words, its help, its options (node:util parseArgs) and what it does. */
import type { ParseArgsConfig } from 'node:util';
import type { AdminApi, Json } from './admin-api';
import type { Environment } from './config-file';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Io {
  readonly env: Environment;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Asked only when TOLLGATE_CLIENT_SECRET is not set. */
  readonly readSecret: (prompt: string) => Promise<string>;
}

export interface Context {
  readonly io: Io;
  readonly values: Values;
  readonly args: readonly string[];
  readonly json: boolean;
  /** The admin API with the stored or environment credentials; resolved on first use. */
  readonly api: () => AdminApi;
  /** A record or list in the chosen form: JSON as the server sent it, or the human text. */
  readonly print: (json: unknown, human: () => string) => void;
}

export interface Command {
  readonly words: readonly string[];
  readonly summary: string;
  /** The arguments after the words, e.g. "<client_id> [--overlap <seconds>]". */
  readonly usage: string;
  readonly positionals: readonly string[];
  readonly options: Options;
  /** One line per option: "--name <n>  what it is". */
  readonly optionHelp: readonly string[];
  readonly details?: string;
  readonly run: (context: Context) => Promise<void>;
}

export const paging: Options = { limit: { type: 'string' }, cursor: { type: 'string' }, all: { type: 'boolean' } };
export const pagingHelp = [
  '--limit <n>      items per page (1-100, default 50)',
  '--cursor <c>     the page after the one that printed this cursor',
  '--all            follow the cursors and print every page',
];

/** A list endpoint's pages: one (with its next_cursor) or, with --all, all of them merged. */
export async function listPages(context: Context, path: string, query: Record<string, string | undefined>): Promise<Json> {
  const { values } = context;
  const limit = values.limit as string | undefined;
  let cursor = values.cursor as string | undefined;
  if (!values.all) return context.api().call('GET', path, { query: { ...query, limit, cursor } });
  const items: unknown[] = [];
  do {
    const page = await context.api().call('GET', path, { query: { ...query, limit, cursor } });
    items.push(...((page.items as unknown[]) ?? []));
    cursor = typeof page.next_cursor === 'string' ? page.next_cursor : undefined;
  } while (cursor);
  return { items };
}

export function itemsOf(page: Json): Json[] {
  return (page.items as Json[] | undefined) ?? [];
}

/** Tells a person, on stderr so the table stays clean, how to get the next page. */
export function moreHint(context: Context, page: Json): void {
  if (typeof page.next_cursor === 'string' && !context.json) {
    context.io.stderr(`More: repeat with --cursor ${page.next_cursor} (or --all)\n`);
  }
}
