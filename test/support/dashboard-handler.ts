/**
 * The dashboard as API Gateway reaches it: its rows (lambdas/routes.ts) are served by three
 * functions (lambdas/wiring/dashboard.ts), so a test calls the one the event's row names.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler as actions } from '../../lambdas/handlers/dashboard';
import { handler as logo } from '../../lambdas/handlers/dashboard-logo';
import { handler as pages } from '../../lambdas/handlers/dashboard-pages';

export const handler = (event: APIGatewayProxyEvent, context: Context) => {
  if (event.resource === '/dashboard/logo') return logo(event, context);
  return event.httpMethod.toUpperCase() === 'GET' ? pages(event, context) : actions(event, context);
};
