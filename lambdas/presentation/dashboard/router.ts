/**
 * The dashboard (behaviour DASH-1..DASH-6): one function behind the /dashboard rows of lambdas/routes.ts, routing
 * by the path below /dashboard. Order of checks on a POST: same origin, then the admin session,
 * then the CSRF token, then the form; nothing is read or written for a request that fails one.
 * Refusals and bad input are pages (never a 500 for bad input), in the dashboard frame when the
 * admin is known.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { InvalidRequestError, NotFoundError, OAuthError } from '../../core/errors';
import type { Container } from '../../http/container';
import { maxLogoBytes } from '../../core/site/logo';
import { header, parseBody, type FormFields } from '../../http/body';
import { type FormPart, multipartForm } from '../../http/multipart';
import { htmlResponse } from '../html';
import { assertSameOrigin } from '../../http/same-origin';
import { errorPage } from '../views/messages';
import { catalogRoutes } from './catalog';
import { clientRoutes } from './clients';
import { clientListRoutes } from './clients-list';
import { clientKeyListRoutes } from './client-keys-list';
import { clientSecretRoutes } from './client-secret';
import { type DashboardRequest, type DashboardRoute, frameOf } from './context';
import type { DashboardDependencies } from './deps';
import { refusedForm } from './forms';
import { checkCsrf, dashboardAdmin } from './guard';
import { dashboardPage, dashboardResponse, withBrandImages } from './layout';
import { logRoutes } from './logs';
import { homeRoutes } from './home';
import { html } from '../html';
import { settingsRoutes } from './settings';
import { shownOnceRoutes } from './shown-once';
import { trustedIssuerRoutes } from './trusted-issuers';
import { userRoutes } from './users';
import { userListRoutes } from './users-list';

const routes: readonly DashboardRoute[] = [
  ...homeRoutes,
  ...clientRoutes,
  ...clientListRoutes,
  ...clientKeyListRoutes,
  ...clientSecretRoutes,
  ...shownOnceRoutes,
  ...userRoutes,
  ...userListRoutes,
  ...catalogRoutes,
  ...trustedIssuerRoutes,
  ...logRoutes,
  ...settingsRoutes,
];

/** The dashboard's own paths (below /dashboard, `:name` segments), for the route-table check of test/unit/presentation/dashboard-routes.test.ts. */
export const dashboardRoutePaths = routes.map((route) => ({ method: route.method, path: route.path }));

function match(method: string, subPath: string): { route: DashboardRoute; params: Record<string, string> } | 'method' | undefined {
  const parts = subPath.split('/').filter((p) => p.length > 0);
  let pathMatched = false;
  for (const route of routes) {
    const template = route.path.split('/').filter((p) => p.length > 0);
    if (template.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = template.every((segment, i) => {
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = parts[i]!;
        return true;
      }
      return segment === parts[i];
    });
    if (!fits) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method' : undefined;
}

/** Where a refused form's "Back" goes: the page of the same path, else the nearest page above it. */
function backTo(subPath: string): string {
  const parts = subPath.split('/').filter((p) => p.length > 0);
  while (parts.length > 0 && typeof match('GET', parts.join('/')) !== 'object') parts.pop();
  return `/dashboard${parts.length > 0 ? `/${parts.map(encodeURIComponent).join('/')}` : ''}`;
}

/**
 * The path below /dashboard: `{proxy+}` as API Gateway decodes it; for a row of its own (the logo
 * upload, `/dashboard/logo`) its resource; nothing for /dashboard itself.
 */
function subPathOf(event: APIGatewayProxyEvent): string {
  return event.pathParameters?.proxy ?? (event.resource ?? '').replace(/^\/dashboard\/?/, '');
}

/** The logo plus its form's few fields; a form post otherwise (64 KiB, lambdas/http/body.ts). */
const maxMultipartBytes = maxLogoBytes + 16 * 1024;

/** A form post's fields (a field may not repeat) and, for multipart/form-data, its files. */
function readForm(event: APIGatewayProxyEvent): { fields: FormFields; files: FormPart[] } {
  if (!/^multipart\/form-data\b/i.test(header(event, 'content-type') ?? '')) {
    return { fields: parseBody(event, ['form']) as FormFields, files: [] };
  }
  const parts = multipartForm(event, maxMultipartBytes);
  const fields: FormFields = Object.create(null);
  for (const part of parts.filter((p) => p.filename === undefined)) {
    if (part.name in fields) throw new InvalidRequestError(`The parameter "${part.name}" is repeated.`);
    fields[part.name] = part.data.toString('utf8');
  }
  return { fields, files: parts.filter((p) => p.filename !== undefined) };
}

export async function dashboard(
  event: APIGatewayProxyEvent,
  container: Container,
  deps: DashboardDependencies,
): Promise<APIGatewayProxyResult> {
  const method = event.httpMethod.toUpperCase();
  let request: DashboardRequest | undefined;
  let found: ReturnType<typeof match>;
  try {
    if (method === 'POST') assertSameOrigin(event, container.config.baseUrl);
    const query = Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter((e): e is [string, string] => e[1] != null));
    const search = new URLSearchParams(query).toString();
    const returnTo = `/dashboard${subPathOf(event) ? `/${subPathOf(event)}` : ''}${search ? `?${search}` : ''}`;
    const admin = await dashboardAdmin(
      event,
      container,
      { sessions: deps.sessions, currentUser: deps.currentUser, mfaPolicy: deps.mfaPolicy },
      returnTo,
    );
    if (!('user' in admin)) return admin;
    let form: FormFields = {};
    let files: FormPart[] = [];
    if (method === 'POST') {
      const posted = readForm(event);
      const { csrf, ...fields } = posted.fields;
      checkCsrf(csrf, admin.csrf);
      form = fields;
      files = posted.files;
    }
    found = match(method, subPathOf(event));
    const brand = await deps.brand();
    request = { event, container, deps, admin, brand, query, form, files, params: {} };
    if (found === undefined || found === 'method') throw new NotFoundError('There is no such dashboard page.');
    // Nothing stored has a longer id (DynamoDB keys stop at 2048 bytes): not found, never a 500.
    if (Object.values(found.params).some((value) => Buffer.byteLength(value, 'utf8') > 2000)) throw new NotFoundError('No such resource.');
    request = { ...request, params: found.params };
    return withBrandImages(await found.route.run(request), brand);
  } catch (error) {
    if (!(error instanceof OAuthError) || error.status >= 500) throw error;
    container.log.info('dashboard request refused', { error: error.code, status: error.status, reason: error.reason });
    if (!request)
      return htmlResponse(error.status, errorPage('This request cannot be completed', error.description), { headers: error.headers });
    const refill = method === 'POST' && typeof found === 'object' ? found.route.refill : undefined;
    // Behaviour DASH-14: bad input or a conflict brings the form back as it was posted; not found, forbidden and the rest keep the page below.
    if (refill && (error.status === 400 || error.status === 409)) {
      const refilled = await refill.page(request, refusedForm(request.form, error, refill), error.status).catch((again: unknown) => {
        if (again instanceof OAuthError && again.status < 500) return undefined;
        throw again;
      });
      if (refilled) return withBrandImages(refilled, request.brand);
    }
    const back = method === 'POST' ? html`<p><a href="${backTo(subPathOf(event))}">Back</a></p>` : html``;
    return withBrandImages(
      dashboardResponse(error.status, dashboardPage('This cannot be done', frameOf(request, { error: error.description }), back)),
      request.brand,
    );
  }
}
