/**
 * GET /dashboard and GET /dashboard/{proxy+}: the dashboard's pages (behaviour DASH-1..DASH-6).
 * Pages read: this function bundles neither SES nor S3 (lambdas/wiring/dashboard.ts).
 */
import { dashboardHandler } from '../wiring/dashboard';

export const handler = dashboardHandler({});
