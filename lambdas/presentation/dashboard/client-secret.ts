/**
 * Rotating a client's secret in the dashboard (behaviour ADMIN-20, DASH-6): a confirmation page
 * that picks the overlap, then the new secret shown once on the page the POST redirects to (DASH-13). The
 * same core use case as the admin API, audited with the admin as actor.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { rotateClientSecret } from '../../core/admin/client-secret';
import { getClient } from '../../core/admin/clients';
import { InvalidRequestError } from '../../core/errors';
import type { Client } from '../../core/model';
import { validate } from '../../http/validate';
import { html } from '../html';
import { actorOf, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { clientPath, csrfField } from './layout';
import { showOnceAfterRedirect } from './shown-once';
import { blankForm, describedBy, fieldError, fieldValue, formError, type FormState } from './forms';

/** The overlaps offered, in seconds; the default first (behaviour ADMIN-20). */
const overlaps = { '86400': '24 hours (default)', '3600': '1 hour', '604800': '7 days', '0': 'none: the old secret stops at once' };

const rotateForm = z.object({
  overlap_seconds: z.enum(Object.keys(overlaps) as [keyof typeof overlaps, ...(keyof typeof overlaps)[]]),
  rotating: z.string().check(z.maxLength(100)),
});

/**
 * Names the secret the confirmation page was shown for, never the secret or its hash: a re-posted
 * form (a reload of the answer page) finds another secret and is refused instead of rotating
 * again, which would start the overlap of the secret just handed out.
 */
const secretMark = (client: Client) =>
  createHash('sha256')
    .update(client.secretHash ?? '')
    .digest('base64url')
    .slice(0, 22);

async function confirmRotation(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const client = await getClient(request.deps.admin, request.params.id!);
  if (!client.secretHash) throw new InvalidRequestError(`Client ${client.clientId} has no secret to rotate.`);
  const chosen = fieldValue(state, 'overlap_seconds', '86400');
  const options = Object.entries(overlaps).map(
    ([seconds, label]) => html`<option value="${seconds}"${seconds === chosen ? html` selected` : ''}>${label}</option>`,
  );
  return pageResponse(
    request,
    `Rotate the secret of ${client.name}?`,
    html`<p>A new secret for <code>${client.clientId}</code> is shown once. Until the overlap ends the current secret
keeps working too, so the client's deployments can change over; after it, only the new one works. A secret
replaced earlier that is still in its overlap stops at once.</p>
<form method="post" action="${clientPath(client.clientId, '/secret')}">${csrfField(request.admin.csrf)}${formError(state)}
<input type="hidden" name="rotating" value="${secretMark(client)}">
<label for="overlap_seconds">The current secret keeps working for</label><select id="overlap_seconds" name="overlap_seconds"${describedBy(state, 'overlap_seconds')}>${options}</select>${fieldError(state, 'overlap_seconds')}
<div class="actions"><button type="submit">Rotate the secret</button> <a href="${clientPath(client.clientId)}">Cancel</a></div></form>`,
    { status },
  );
}

async function rotate(request: DashboardRequest) {
  const form = validate(rotateForm, request.form);
  const client = await getClient(request.deps.admin, request.params.id!);
  if (client.secretHash && form.rotating !== secretMark(client)) {
    throw new InvalidRequestError('This secret was rotated since the page was shown; open the client page to rotate it again.');
  }
  const rotated = await rotateClientSecret(request.deps.admin, actorOf(request), {
    clientId: client.clientId,
    overlapSeconds: Number(form.overlap_seconds),
  });
  // Behaviour DASH-13: the new secret is shown once, on the page this redirects to.
  return showOnceAfterRedirect(request, {
    purpose: 'rotated-secret',
    clientId: client.clientId,
    secret: rotated.secret,
    ...(rotated.previousSecretExpiresAt ? { previousSecretExpiresAt: rotated.previousSecretExpiresAt } : {}),
  });
}

export const clientSecretRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/:id/secret', run: (request) => confirmRotation(request) },
  {
    method: 'POST',
    path: 'clients/:id/secret',
    run: rotate,
    refill: { fields: ['overlap_seconds'], page: (request, state, status) => confirmRotation(request, state, status) },
  },
];
