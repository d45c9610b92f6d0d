/** Dashboard form fields (zod/mini): the admin API's field rules, read from HTML forms. */
import * as z from 'zod/mini';
import { InvalidRequestError } from '../../core/errors';

/** Space- or comma-separated names (a text field): forms may not repeat a field (lambdas/http/body.ts). */
export function wordList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((word) => word.length > 0);
}

/** One per line (a textarea). */
export function lineList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** A checkbox: present when ticked. */
export const checkbox = z.optional(z.literal('on'));

/** An ISO time or empty (the filters of the log pages). */
export function optionalTime(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidRequestError(`${name}: must be a time such as 2030-01-01T00:00:00Z.`);
  return new Date(ms).toISOString();
}

/** An empty field is absent. */
export const blankToUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);
