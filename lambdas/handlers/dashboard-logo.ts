/**
 * POST /dashboard/logo: the dashboard's logo upload and removal (behaviour SITE-3, DASH-6), the one
 * dashboard row that writes branding/* (S3); it sends no mail (lambdas/wiring/dashboard.ts).
 */
import { dashboardHandler } from '../wiring/dashboard';
import { getLogo } from '../wiring/site-assets';

export const handler = dashboardHandler({ logo: getLogo });
