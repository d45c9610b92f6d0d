/** A client's token requests of the last 7 days on its page (behaviour DASH-8), drawn as DASH-9 says, with the way to its activity log. */
import { tokenActivity } from '../../core/admin/overview';
import { type Html, html } from '../html';
import { dayBars, tokenChart } from './charts';
import type { DashboardRequest } from './context';
import { clientPath } from './layout';

export async function clientActivityChart(request: DashboardRequest, clientId: string): Promise<Html> {
  const { lastWeek } = await tokenActivity(request.deps.tokenStats, { kind: 'client', clientId }, request.container.clock.now());
  return html`<h2>Token requests, last 7 days</h2>
${tokenChart({ id: 'client-chart-7d', title: 'Token requests of this client in the last 7 days, by day (UTC)', period: 'Day (UTC)', empty: 'No token requests from this client in the last 7 days.', bars: dayBars(lastWeek.buckets) })}
<p><a href="${clientPath(clientId, '/activity')}">Every request in the token activity log</a></p>`;
}
