/**
 * The dashboard's pages behind API Gateway (behaviour DASH-6): `{proxy+}` under /dashboard
 * serves every page, and a row of its own (the logo upload) creates its resource and every parent.
 * A parent resource has no method, and API Gateway never falls back from it to the `{proxy+}`
 * sibling (lib/gateway-responses.ts answers 404): so no row may sit below a dashboard page's path.
 */
import { dashboardRoutePaths } from '../../../lambdas/presentation/dashboard/router';
import { createRouter } from '../../../lambdas/http/router';
import { routes } from '../../../lambdas/routes';

const ownRows = routes.filter((r) => r.path.startsWith('/dashboard/') && !r.path.includes('{proxy+}'));

it('every dashboard row of its own is a dashboard form post, served by the dashboard logo handler (the one row granted branding/*)', () => {
  expect(ownRows.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /dashboard/logo']);
  for (const row of ownRows) {
    expect(row.handler).toBe('dashboard-logo');
    expect(dashboardRoutePaths).toContainEqual({ method: row.method, path: row.path.replace(/^\/dashboard\//, '') });
  }
});

it('no row creates a resource that would shadow a dashboard page (the pages are reached only through {proxy+})', () => {
  const parents = new Set(
    ownRows.flatMap((row) => {
      const segments = row.path.split('/').filter(Boolean).slice(1);
      return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
    }),
  );
  const pages = dashboardRoutePaths.filter((p) => p.method === 'GET').map((p) => p.path.replace(/:[^/]+/g, 'x'));
  for (const page of pages) expect(parents).not.toContain(page);
});

it.each(dashboardRoutePaths.filter((p) => p.method === 'GET').map((p) => p.path))('GET /dashboard/%s reaches a dashboard row', (path) => {
  const found = createRouter()('GET', `/dashboard/${path.replace(/:[^/]+/g, 'x')}`.replace(/\/$/, ''));
  expect(found.kind === 'match' && found.route.handler).toBe('dashboard-pages');
});
