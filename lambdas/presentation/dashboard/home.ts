/** GET /dashboard: the service at a glance (behaviour DASH-7), its charts (DASH-9), and where to go from here. */
import { type ActivityWindow, type Overview, serviceOverview } from '../../core/admin/overview';
import { html } from '../html';
import { dayBars, hourBars, tokenChart } from './charts';
import { type DashboardRoute, frameOf } from './context';
import { dashboardPage, dashboardPaths, dashboardResponse } from './layout';

/** "2.5%", or a dash when nothing was asked (0 of 0 is no rate). */
export function refusalRate({ issued, refused }: { issued: number; refused: number }): string {
  const all = issued + refused;
  return all === 0 ? '–' : `${Math.round((refused / all) * 1000) / 10}%`;
}

function counts({ counts }: Overview) {
  const row = (id: string, label: string, value: number, href?: string) =>
    html`<tr><th scope="row">${href ? html`<a href="${href}">${label}</a>` : label}</th><td id="${id}">${value}</td></tr>`;
  return html`<table id="counts"><tbody>
${row('count-static-clients', 'Static clients', counts.clients.static, `${dashboardPaths.clients}?type=static`)}
${row('count-dynamic-clients', 'Self-registered clients', counts.clients.dynamic, `${dashboardPaths.clients}?type=dynamic`)}
${row('count-users', 'Users', counts.users, dashboardPaths.users)}
${row('count-active-keys', 'Active API keys (by UTC day)', counts.activeApiKeys)}
${row('count-expiring-keys', 'API keys expiring within 30 days (by UTC day)', counts.apiKeysExpiringSoon)}
</tbody></table>
<p id="counts-by-day">API keys are counted by the UTC day they expire (behaviour LOG-11): one that expires today counts as active until the day ends.</p>`;
}

function perRequestType(lastDay: ActivityWindow, lastWeek: ActivityWindow) {
  const week = new Map(lastWeek.byRequestType.map((totals) => [totals.requestType, totals]));
  const cells = (totals: { issued: number; refused: number }) =>
    html`<td>${totals.issued}</td><td>${totals.refused}</td><td>${refusalRate(totals)}</td>`;
  return html`<table id="token-requests"><thead>
<tr><th rowspan="2">Request type</th><th colspan="3">Last 24 hours</th><th colspan="3">Last 7 days</th></tr>
<tr><th>Issued</th><th>Refused</th><th>Refusal rate</th><th>Issued</th><th>Refused</th><th>Refusal rate</th></tr></thead>
<tbody>${lastDay.byRequestType.map(
    (day) =>
      html`<tr data-request-type="${day.requestType}"><th scope="row">${day.requestType}</th>${cells(day)}${cells(week.get(day.requestType) ?? { issued: 0, refused: 0 })}</tr>`,
  )}</tbody>
<tfoot><tr><th scope="row">All</th>${cells(lastDay.total)}${cells(lastWeek.total)}</tr></tfoot></table>`;
}

/** `2026-11-26T13:05:09.000Z` → `2026-11-26 13:05 UTC`. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function signingKey({ signingKey: key }: Overview) {
  if (!key) {
    return html`<p id="signing-key-unrecorded">Not recorded yet: the rotation job records the signing key's age after each of its daily
runs in AWS. The local server keeps one key and rotates nothing.</p>`;
  }
  const next =
    key.next.step === 'prepare'
      ? html`the next key is published at the rotation job's first daily run from ${utc(key.next.due)}, and signs from a later run, once
every cache of the key set can hold it`
      : html`key <code>${key.next.kid}</code> is published and signs from the rotation job's first daily run from ${utc(key.next.due)}`;
  return html`<table id="signing-key"><tbody>
<tr><th scope="row">Signing key</th><td><code>${key.kid}</code></td></tr>
<tr><th scope="row">Age</th><td id="signing-key-age">${key.ageDays === 1 ? '1 day' : `${key.ageDays} days`} (signing since ${utc(key.activatedAt)})</td></tr>
<tr><th scope="row">Next rotation</th><td id="signing-key-next">${next}</td></tr>
<tr><th scope="row">Recorded</th><td>${utc(key.recordedAt)}, by the rotation job</td></tr>
</tbody></table>`;
}

export const homeRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '',
    run: async (request) => {
      const overview = await serviceOverview(request.deps, request.container.clock.now());
      const { lastDay, lastWeek } = overview.activity;
      return dashboardResponse(
        200,
        dashboardPage(
          'Overview',
          frameOf(request),
          html`<p>Signed in as <strong>${request.admin.user.name}</strong>. Every change made here is written to the
<a href="${dashboardPaths.audit}">audit log</a> with you as the actor.</p>
<h2>At a glance</h2>
${counts(overview)}
<h2>Token requests</h2>
<p>Counted by the hour (UTC) from the token activity log; the current hour is still counting, and the counts may be a minute behind.</p>
${perRequestType(lastDay, lastWeek)}
<h3>Last 24 hours</h3>
${tokenChart({ id: 'chart-24h', title: 'Token requests in the last 24 hours, by hour (UTC)', period: 'Hour (UTC)', empty: 'No token requests in the last 24 hours.', bars: hourBars(lastDay.buckets) })}
<h3>Last 7 days</h3>
${tokenChart({ id: 'chart-7d', title: 'Token requests in the last 7 days, by day (UTC)', period: 'Day (UTC)', empty: 'No token requests in the last 7 days.', bars: dayBars(lastWeek.buckets) })}
<h2>Signing key</h2>
${signingKey(overview)}
<h2>Where to go</h2>
<ul><li><a href="${dashboardPaths.clients}">Clients</a>: static and self-registered clients, their API keys and token activity</li>
<li><a href="${dashboardPaths.users}">Users</a>: accounts, environment grants, passkeys, sign-out everywhere, reset links</li>
<li><a href="${dashboardPaths.environments}">Environments</a> and <a href="${dashboardPaths.scopes}">scopes</a></li>
<li><a href="${dashboardPaths.audit}">Audit log</a></li></ul>`,
        ),
      );
    },
  },
];
