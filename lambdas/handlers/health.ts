/**
 * GET /api/health: an uptime check. It touches no dependency, so probes cost nothing
 * and a DynamoDB hiccup does not flap the check; errors surface through the alarms.
 */
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';

export const handler = httpHandler(async (_event, container) =>
  jsonResponse(200, { status: 'ok', time: new Date(container.clock.now()).toISOString() }),
);
