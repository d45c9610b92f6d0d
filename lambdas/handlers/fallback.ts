/**
 * Every request no route row takes: 405 with `Allow` for a known path, 404 otherwise,
 * in the service's error shape (API Gateway's own answer would be a 403 "Missing
 * Authentication Token"). Resolves against the same route table as the local server.
 */
import { MethodNotAllowedError, NotFoundError } from '../core/errors';
import { httpHandler } from '../wiring/handler';
import { createRouter } from '../http/router';

const route = createRouter();

export const handler = httpHandler(async (event) => {
  const found = route(event.httpMethod, event.path);
  if (found.kind === 'method-not-allowed') throw new MethodNotAllowedError(found.allowed);
  throw new NotFoundError('No such endpoint.');
});
