/** Human output: aligned tables for lists, one "field  value" line per field for a record. */
import type { Json } from './admin-api';

export interface Column {
  readonly title: string;
  readonly value: (row: Json) => unknown;
}

export const field = (name: string, title = name): Column => ({ title, value: (row) => row[name] });

export function text(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.length ? value.map(text).join(' ') : '-';
  if (typeof value === 'object') {
    const actor = value as Json;
    // An audit actor or a key's created_by: its kind and the one id it names.
    if (typeof actor.type === 'string') return [actor.type, actor.client_id ?? actor.user_id].filter(Boolean).join(' ');
    return JSON.stringify(value);
  }
  // Control characters from stored values could move the cursor or recolour the terminal.
  return String(value).replace(/\p{Cc}/gu, '?');
}

export function table(rows: readonly Json[], columns: readonly Column[]): string {
  const cells = rows.map((row) => columns.map((column) => text(column.value(row))));
  const widths = columns.map((column, i) => Math.max(column.title.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(columns.map((column) => column.title.toUpperCase())), ...cells.map(line)].join('\n')}\n`;
}

export function record(row: Json, names: readonly string[] = Object.keys(row)): string {
  const width = Math.max(...names.map((name) => name.length));
  return `${names.map((name) => `${name.padEnd(width)}  ${text(row[name])}`).join('\n')}\n`;
}
