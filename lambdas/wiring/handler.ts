/**
 * The handler factory bound to this Lambda container: every handler module builds its export
 * with it, so lambdas/http stays free of per-container state. Admin handlers use
 * admin-handler.ts (kept apart: it brings the bearer check and the repositories with it).
 */
import { handlerFactory } from '../http/handler';
import { getContainer } from './container';

export const httpHandler = handlerFactory(getContainer);
