/**
 * What the client forms offer (behaviour DASH-15): the catalog's scopes as checkboxes with their
 * descriptions, and the environment a new client goes to by default. The scopes a form posts are
 * its ticked `scope:<name>` boxes (a field may not repeat, so each box has its own name), plus the
 * space-separated `scopes` of a form that types them.
 */
import type { ScopeDefinition } from '../../core/ports';
import { InvalidRequestError } from '../../core/errors';
import type { Environment } from '../../core/model';
import { html, type Html } from '../html';
import { describedBy, fieldError, type FormState, isTicked, wordList } from './forms';

const scopeBox = (name: string) => `scope:${name}`;

/** The ticked boxes and typed names, each once, in the order given. */
export function scopesOfForm(form: Readonly<Record<string, string | undefined>>): string[] {
  const ticked = Object.entries(form)
    .filter(([field]) => field.startsWith('scope:'))
    .map(([field, value]) => {
      if (value !== 'on') throw new InvalidRequestError(`scopes: the box of "${field.slice(6)}" must be "on" when ticked.`);
      return field.slice(6);
    });
  return [...new Set([...wordList(form.scopes), ...ticked])];
}

/**
 * One box per catalog scope, ticked for the scopes the client holds (`held`) or, after a refusal,
 * as posted. A held scope missing from the catalog is offered too, so saving never drops it unseen.
 */
export function scopeCheckboxes(catalog: readonly ScopeDefinition[], held: readonly string[], state: FormState): Html {
  const known = new Set(catalog.map((scope) => scope.name));
  const offered = [...catalog, ...held.filter((name) => !known.has(name)).map((name) => ({ name, description: '' }))];
  const typed = new Set(wordList(state.values.scopes));
  return html`<fieldset id="scopes"${describedBy(state, 'scopes')}><legend>Scopes</legend>${fieldError(state, 'scopes')}${offered.map(
    (scope) =>
      html`<label><input type="checkbox" name="${scopeBox(scope.name)}"${
        isTicked(state, scopeBox(scope.name), held.includes(scope.name)) || typed.has(scope.name) ? html` checked` : ''
      }> <code>${scope.name}</code>${scope.description ? html` ${scope.description}` : ''}</label>`,
  )}${offered.length === 0 ? html`<p>The catalog has no scopes yet: create them on the Scopes page.</p>` : ''}</fieldset>`;
}

/**
 * Behaviour DASH-15: the environment the bootstrap made for static clients, "Default", never the
 * self-registration one; else the first other than that one; else the first.
 */
export function defaultEnvironmentOf(environments: readonly Environment[], dcrEnvironmentId: string | undefined): string | undefined {
  const others = environments.filter((environment) => !environment.dcr && environment.id !== dcrEnvironmentId);
  return (others.find((environment) => environment.name.toLowerCase() === 'default') ?? others[0] ?? environments[0])?.id;
}
