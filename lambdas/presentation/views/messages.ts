/** Short pages: errors that must not redirect, signed in, signed out. */
import { endpointPaths } from '../../core/paths';
import { html, page, type Html } from '../html';

export function errorPage(title: string, message: string): Html {
  return page(title, html`<p>${message}</p><p>Return to the application you came from and try again.</p>`);
}

export function signedInPage(user: { readonly name: string; readonly email?: string }): Html {
  return page(
    'Signed in',
    html`<p>You are signed in as <strong>${user.name}</strong>${user.email ? html` (${user.email})` : ''}.</p>
<form method="post" action="${endpointPaths.signOut}"><button type="submit">Sign out</button></form>`,
  );
}

export function signedOutPage(): Html {
  return page('Signed out', html`<p>You are signed out.</p><p><a href="${endpointPaths.signIn}">Sign in again</a></p>`);
}
