/** What one dashboard request's page or action is given (lambdas/presentation/dashboard/router.ts). */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { AdminActor } from '../../core/admin/audit';
import type { Container } from '../../core/ports';
import type { FormFields } from '../../http/body';
import type { Brand } from '../html';
import type { FormPart } from '../../http/multipart';
import type { DashboardDependencies } from './deps';
import type { DashboardAdmin } from './guard';
import type { Frame } from './layout';

export interface DashboardRequest {
  readonly event: APIGatewayProxyEvent;
  readonly container: Container;
  readonly deps: DashboardDependencies;
  readonly admin: DashboardAdmin;
  /** The site's title and logo for the header. */
  readonly brand?: Brand;
  readonly query: Readonly<Record<string, string>>;
  /** The posted form, CSRF-checked (POST only; the `csrf` field removed). */
  readonly form: FormFields;
  /** The files of a multipart/form-data post (the logo upload). */
  readonly files: readonly FormPart[];
  /** The path's `{name}` parts. */
  readonly params: Readonly<Record<string, string>>;
}

export type DashboardRoute = {
  readonly method: 'GET' | 'POST';
  /** Below /dashboard, with `:name` segments. */
  readonly path: string;
  readonly run: (request: DashboardRequest) => Promise<APIGatewayProxyResult>;
};

export const frameOf = (request: DashboardRequest, message: { notice?: string; error?: string } = {}): Frame => ({
  ...(request.brand ? { brand: request.brand } : {}),
  admin: request.admin.user,
  csrf: request.admin.csrf,
  ...message,
});

export const actorOf = (request: DashboardRequest): AdminActor => ({ kind: 'admin-user', userId: request.admin.user.id });
