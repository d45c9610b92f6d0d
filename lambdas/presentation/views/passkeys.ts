/**
 * The passkey pages (behaviour PASSKEY-1, PASSKEY-10): the list with "Add a passkey", and the passkey part of the
 * sign-in page. The one inline script (nonce'd; lambdas/presentation/html.ts) uses the browser's own
 * WebAuthn JSON helpers (WebAuthn L3 5.1.9, 5.1.10) and submits the credential's toJSON() in
 * a plain form post; without them the passkey buttons stay hidden and the pages work as before.
 */
import { accountPaths } from '../../core/account/paths';
import { passkeyLabel } from '../../core/account/passkeys';
import { html, Html, page } from '../html';
import type { Passkey } from '../../core/account/ports';

const passkeyScript = `(() => {
  const P = window.PublicKeyCredential;
  const supported = P && typeof P.parseCreationOptionsFromJSON === 'function' && typeof P.parseRequestOptionsFromJSON === 'function';
  const error = document.getElementById('passkey-error');
  const fail = (text) => { error.textContent = text; error.hidden = false; };
  const submit = (form, credential) => { form.elements.credential.value = JSON.stringify(credential.toJSON()); form.submit(); };
  const signIn = document.getElementById('passkey-sign-in');
  if (signIn && supported) {
    signIn.hidden = false;
    signIn.addEventListener('click', async () => {
      try {
        const answer = await fetch(signIn.dataset.options, { method: 'POST', headers: { Accept: 'application/json' } });
        if (!answer.ok) throw new Error('no options');
        const credential = await navigator.credentials.get({ publicKey: P.parseRequestOptionsFromJSON(await answer.json()) });
        submit(signIn.form, credential);
      } catch {
        fail('Signing in with a passkey did not work. Try again, or use your password.');
      }
    });
  }
  const add = document.getElementById('passkey-add');
  if (add && supported) {
    add.hidden = false;
    document.getElementById('passkey-name-field').hidden = false;
    add.addEventListener('click', async () => {
      try {
        const credential = await navigator.credentials.create({ publicKey: P.parseCreationOptionsFromJSON(JSON.parse(add.dataset.options)) });
        submit(add.form, credential);
      } catch (e) {
        fail(e && e.name === 'InvalidStateError' ? 'This authenticator already holds a passkey for your account.' : 'The passkey was not added.');
      }
    });
  }
})();`;

const script = (nonce: string) => html`<script nonce="${nonce}">${new Html(passkeyScript)}</script>`;
const errorSlot = html`<p id="passkey-error" class="error" role="alert" hidden></p>`;

/** "Sign in with a passkey" under the password form; posts to the sign-in verify path with the same continuation. */
export function passkeySignInPart(nonce: string, hidden: Readonly<Record<string, string | undefined>>): Html {
  const fields = Object.entries(hidden).filter((e): e is [string, string] => e[1] !== undefined);
  return html`<form method="post" action="${accountPaths.passkeySignIn}">
${fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="credential" value="">
<button type="button" id="passkey-sign-in" data-options="${accountPaths.passkeySignInOptions}" hidden>Sign in with a passkey</button>
</form>
${errorSlot}
${script(nonce)}`;
}

export interface PasskeysView {
  readonly nonce: string;
  readonly passkeys: readonly Passkey[];
  /** PublicKeyCredentialCreationOptionsJSON of a fresh registration ceremony. */
  readonly creationOptions: unknown;
  readonly error?: string;
  readonly notice?: string;
}

const when = (iso?: string) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');

export function passkeysPage(view: PasskeysView): Html {
  return page(
    'Your passkeys',
    html`<p>A passkey signs you in with your device's screen lock instead of a password.</p>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${view.notice ? html`<p role="status">${view.notice}</p>` : ''}
${
  view.passkeys.length === 0
    ? html`<p id="no-passkeys">You have no passkeys yet.</p>`
    : html`<ul id="passkeys">${view.passkeys.map(
        (
          p,
        ) => html`<li><strong>${passkeyLabel(p)}</strong>: added ${when(p.createdAt)} UTC${p.backedUp ? ' (synced)' : ''}, last used ${when(p.lastUsedAt)}
<form method="post" action="${accountPaths.passkeyRemove}"><input type="hidden" name="credential_id" value="${p.credentialId}"><button type="submit">Remove</button></form></li>`,
      )}</ul>`
}
<form method="post" action="${accountPaths.passkeyRegister}">
<input type="hidden" name="credential" value="">
<p id="passkey-name-field" hidden><label for="passkey-name">Name of the new passkey (optional)</label>
<input id="passkey-name" name="name" type="text" maxlength="64" autocomplete="off" placeholder="e.g. Work laptop"></p>
<button type="button" id="passkey-add" data-options="${JSON.stringify(view.creationOptions)}" hidden>Add a passkey</button>
</form>
${errorSlot}
${script(view.nonce)}`,
  );
}
