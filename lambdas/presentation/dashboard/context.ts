/** What one dashboard request's page or action is given (lambdas/presentation/dashboard/router.ts). */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { AdminActor } from '../../core/admin/audit';
import type { Container } from '../../http/container';
import type { FormFields } from '../../http/body';
import { type Brand, type Html, html } from '../html';
import type { FormPart } from '../../http/multipart';
import type { DashboardDependencies } from './deps';
import type { FormState } from './forms';
import type { DashboardAdmin } from './guard';
import { actionButton, dashboardPage, dashboardResponse, type Frame } from './layout';

export interface DashboardRequest {
  readonly event: APIGatewayProxyEvent;
  readonly container: Container;
  readonly deps: DashboardDependencies;
  readonly admin: DashboardAdmin;
  /** The site's title and logo for the header. */
  readonly brand?: Brand;
  readonly query: Readonly<Record<string, string>>;
  /** The posted form, CSRF-checked (POST only; the `csrf` field removed). */
  readonly form: FormFields;
  /** The files of a multipart/form-data post (the logo upload). */
  readonly files: readonly FormPart[];
  /** The path's `{name}` parts. */
  readonly params: Readonly<Record<string, string>>;
}

export type DashboardRoute = {
  readonly method: 'GET' | 'POST';
  /** Below /dashboard, with `:name` segments. */
  readonly path: string;
  readonly run: (request: DashboardRequest) => Promise<APIGatewayProxyResult>;
  /**
   * A form's post: its page again, filled in with what was posted and the problem beside its
   * field, when the post is refused (400, 409; behaviour DASH-14). `fields` are the names the form
   * shows a problem beside.
   */
  readonly refill?: {
    readonly fields: readonly string[];
    /** The field a conflict (409) that names none is about: the id or name that is taken. */
    readonly conflictField?: string;
    readonly page: (request: DashboardRequest, state: FormState, status: number) => Promise<APIGatewayProxyResult>;
  };
};

export const frameOf = (request: DashboardRequest, message: { notice?: string; error?: string } = {}): Frame => ({
  ...(request.brand ? { brand: request.brand } : {}),
  admin: request.admin.user,
  csrf: request.admin.csrf,
  ...message,
});

/** A page of the dashboard: `body` in the frame of this request, with the notice of a change just made. */
export function pageResponse(
  request: DashboardRequest,
  title: string,
  body: Html,
  options: { readonly notice?: string | undefined; readonly status?: number } = {},
): APIGatewayProxyResult {
  return dashboardResponse(
    options.status ?? 200,
    dashboardPage(title, frameOf(request, options.notice ? { notice: options.notice } : {}), body),
  );
}

export const actorOf = (request: DashboardRequest): AdminActor => ({ kind: 'admin-user', userId: request.admin.user.id });

/** A deletion's confirmation page (a GET never deletes): what it does, its button, the way back. */
export interface Confirmation {
  readonly title: string;
  /** What the deletion does and what it cannot undo. */
  readonly consequence: Html;
  /** The POST that deletes, its button's label and hidden fields. */
  readonly action: string;
  readonly label: string;
  readonly hidden?: Record<string, string>;
  /** Where Cancel leads. */
  readonly back: string;
}

export function confirmationPage(request: DashboardRequest, confirmation: Confirmation): APIGatewayProxyResult {
  const { title, consequence, action, label, hidden, back } = confirmation;
  return pageResponse(
    request,
    title,
    html`<p>${consequence}</p>
<div class="actions">${actionButton(action, request.admin.csrf, label, hidden)} <a href="${back}">Cancel</a></div>`,
  );
}
