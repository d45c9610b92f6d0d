/** GET /dashboard: where to go from here. */
import { html } from '../html';
import { type DashboardRoute, frameOf } from './context';
import { dashboardPage, dashboardPaths, dashboardResponse } from './layout';

export const homeRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '',
    run: async (request) =>
      dashboardResponse(
        200,
        dashboardPage(
          'Overview',
          frameOf(request),
          html`<p>Signed in as <strong>${request.admin.user.name}</strong>. Every change made here is written to the
<a href="${dashboardPaths.audit}">audit log</a> with you as the actor.</p>
<ul><li><a href="${dashboardPaths.clients}">Clients</a>: static and self-registered clients, their API keys and token activity</li>
<li><a href="${dashboardPaths.users}">Users</a>: accounts, environment grants, passkeys, sign-out everywhere, reset links</li>
<li><a href="${dashboardPaths.environments}">Environments</a> and <a href="${dashboardPaths.scopes}">scopes</a></li>
<li><a href="${dashboardPaths.audit}">Audit log</a></li></ul>`,
        ),
      ),
  },
];
