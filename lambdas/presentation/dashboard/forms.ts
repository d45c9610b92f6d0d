/** Dashboard form fields (zod/mini): the admin API's field rules, read from HTML forms. */
import * as z from 'zod/mini';
import { InvalidRequestError } from '../../core/errors';
import { type Html, html } from '../html';

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

/**
 * What a form shows: blank (or the stored record), or after a refusal the values just posted with
 * the problem beside its field (behaviour DASH-14). A password is never posted back.
 */
export interface FormState {
  /** True when the form comes back after a refused post: its values are the posted ones, unticked boxes included. */
  readonly refilled: boolean;
  readonly values: Readonly<Record<string, string | undefined>>;
  /** The refusal: beside `field` when the form has that field, else at the top of the form. */
  readonly problem?: { readonly field?: string; readonly message: string };
}

export const blankForm: FormState = { refilled: false, values: {} };

/** Fields whose posted value never comes back in a page (behaviour DASH-14). */
const neverEchoed = new Set(['password', 'csrf']);

/**
 * The state of a refused form: `description` is the refusal's; a leading `field:` or
 * `field.index:` (zod issues carry the path, core errors say the field first) puts it beside
 * that field when it is one of the form's `fields`.
 */
export function refusedForm(
  posted: Readonly<Record<string, string | undefined>>,
  refusal: { readonly status: number; readonly description: string },
  form: { readonly fields: readonly string[]; readonly conflictField?: string },
): FormState {
  const values = Object.fromEntries(Object.entries(posted).filter(([name]) => !neverEchoed.has(name)));
  const named = /^([A-Za-z_]+)(?:\.[^:\s]*)?: (.+)$/s.exec(refusal.description);
  if (named && form.fields.includes(named[1]!)) return { refilled: true, values, problem: { field: named[1]!, message: named[2]! } };
  if (refusal.status === 409 && form.conflictField) {
    return { refilled: true, values, problem: { field: form.conflictField, message: refusal.description } };
  }
  return { refilled: true, values, problem: { message: refusal.description } };
}

/** A text field's value: the posted one after a refusal, else `stored`. */
export const fieldValue = (state: FormState, name: string, stored = ''): string => (state.refilled ? (state.values[name] ?? '') : stored);

/** A checkbox: ticked as posted after a refusal, else as stored. */
export const isTicked = (state: FormState, name: string, stored: boolean): boolean =>
  state.refilled ? state.values[name] !== undefined : stored;

/** The problem beside its field (behaviour DASH-14): the input names it with aria-describedby. */
export function fieldError(state: FormState, name: string): Html | '' {
  if (state.problem?.field !== name) return '';
  return html`<p class="field-error" id="${name}-error">${state.problem.message}</p>`;
}

/** `aria-describedby` for the field the problem is beside. */
export const describedBy = (state: FormState, name: string): Html | '' =>
  state.problem?.field === name ? html` aria-invalid="true" aria-describedby="${name}-error"` : '';

/**
 * The top of a refused form: the problem itself when it is about no field of the form, else a
 * line leading to the field it is beside (the error summary of GOV.UK's pattern).
 */
export function formError(state: FormState): Html | '' {
  if (!state.problem) return '';
  const { field, message } = state.problem;
  if (!field) return html`<p class="error" role="alert">${message}</p>`;
  return html`<p class="error" role="alert">Nothing was saved: <a href="#${field}-error">${field.replaceAll('_', ' ')}: ${message}</a></p>`;
}
