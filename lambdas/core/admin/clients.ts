/** Admin operations on clients: static public or confidential clients (behaviour ADMIN-13..ADMIN-16). */
import { ConflictError, InvalidRequestError } from '../errors';
import { newId, newSecret } from '../ids';
import type { Client, ClientType, GrantType, RegistrationType } from '../model';
import { grantTypeFacts, redirectingGrantTypes } from '../grants/grant-types';
import { maxRefreshGraceSeconds } from '../lifetimes';
import { checkClientKeys, type ClientKeys, type ClientKeysInput } from '../client-keys';
import { redirectUriProblem } from '../redirect-uri';
import { found, noSuch } from './not-found';
import { withCheckedScopes } from './scopes';
import { pageOf } from './filtered-pages';
import { isoNow, type AdminDependencies, type ClientChanges, type Page } from './ports';
import { type AdminActor, auditEntryOf } from './audit';

export interface NewClient {
  readonly type: ClientType;
  readonly name: string;
  readonly environmentId: string;
  readonly scopes: readonly string[];
  readonly redirectUris: readonly string[];
  /** Defaults: public → authorization_code + refresh_token; confidential → the same with redirect URIs, else client_credentials. */
  readonly grantTypes?: readonly GrantType[];
  readonly admin: boolean;
  readonly test: boolean;
  /** May introspect every token of this server (a resource server); confidential clients only. */
  readonly introspectAll?: boolean;
  /** Its own refresh rotation grace window (behaviour REFRESH-7); absent: the server's. */
  readonly refreshGraceSeconds?: number;
  /** RFC 9126 6: its authorization requests must be pushed (behaviour AUTHZ-18). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** private_key_jwt (behaviour TOKEN-6, ADMIN-19): the client's public keys instead of a secret. */
  readonly keys?: ClientKeysInput;
  /** RFC 9449 5.2: its token requests must carry a DPoP proof (behaviour TOKEN-9). */
  readonly dpopBoundAccessTokens?: boolean;
}

export interface CreatedClient {
  readonly client: Client;
  /** The confidential client's secret, in the clear this one time; only its hash is stored. */
  readonly secret?: string;
}

const bad = (description: string) => new InvalidRequestError(description);

/** The keys as stored, or the refusal naming the field (behaviour ADMIN-19). */
function checkedKeys(input: ClientKeysInput, allowLoopbackHttp: boolean | undefined): ClientKeys {
  const checked = checkClientKeys(input, allowLoopbackHttp);
  if ('problem' in checked) throw bad(checked.problem);
  return checked.keys;
}

function grantTypesOf(input: NewClient): GrantType[] {
  const browserFlow: GrantType[] = ['authorization_code', 'refresh_token'];
  const chosen = input.grantTypes ?? (input.type === 'public' || input.redirectUris.length > 0 ? browserFlow : ['client_credentials']);
  return [...new Set(chosen)];
}

const noRedirectingGrant = () => bad(`redirect_uris: only clients with ${redirectingGrantTypes.join(' or ')} use redirect URIs.`);

/** Redirect URIs exactly when a grant returns the user agent to the client (behaviour ADMIN-13). */
function checkRedirectUriUse(grantTypes: readonly GrantType[], redirectUris: readonly string[]): void {
  const redirecting = grantTypes.find((g) => grantTypeFacts[g].redirectsToClient);
  if (redirecting && redirectUris.length === 0) throw bad(`redirect_uris: ${redirecting} needs at least one redirect URI.`);
  if (!redirecting && redirectUris.length > 0) throw noRedirectingGrant();
}

/** The combinations that make sense; each refusal says what to change. */
function checkShape(input: NewClient, grantTypes: readonly GrantType[], adminScope: string): void {
  const has = (g: GrantType) => grantTypes.includes(g);
  if (grantTypes.length === 0) throw bad('grant_types: must name at least one grant type.');
  const secretOnly = grantTypes.find((g) => grantTypeFacts[g].confidentialOnly);
  if (input.type === 'public' && secretOnly) throw bad(`grant_types: a public client has no secret, so it cannot use ${secretOnly}.`);
  if (input.type === 'public' && !has('authorization_code')) throw bad('grant_types: a public client needs authorization_code.');
  for (const g of grantTypes) {
    const required = grantTypeFacts[g].requires;
    if (required && !has(required)) throw bad(`grant_types: ${g} needs ${required}.`);
  }
  checkRedirectUriUse(grantTypes, input.redirectUris);
  for (const [index, uri] of input.redirectUris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw bad(`redirect_uris.${index}: ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  if (input.refreshGraceSeconds !== undefined) checkRefreshGrace(grantTypes, input.refreshGraceSeconds);
  // Introspection (RFC 7662 2.1) needs client authentication, so only confidential clients can use it.
  if (input.introspectAll && input.type !== 'confidential') throw bad('introspect_all: only a confidential client can introspect.');
  // admin-auth accepts a client token only without `sub` and with the admin scope.
  if (input.admin && (input.type !== 'confidential' || !has('client_credentials') || !input.scopes.includes(adminScope))) {
    throw bad(`admin: an admin client must be confidential, with the client_credentials grant and the "${adminScope}" scope.`);
  }
}

export async function createClient(
  deps: Pick<AdminDependencies, 'clients' | 'environments' | 'scopes' | 'hasher' | 'random' | 'clock' | 'clientIdPrefix' | 'adminScope'> &
    Partial<Pick<AdminDependencies, 'allowLoopbackJwksUri'>>,
  actor: AdminActor,
  input: NewClient,
): Promise<CreatedClient> {
  const grantTypes = grantTypesOf(input);
  checkShape(input, grantTypes, deps.adminScope);
  if (input.keys && input.type !== 'confidential')
    throw bad('jwks, jwks_uri: only a confidential client authenticates with keys (private_key_jwt).');
  const keys = input.keys ? checkedKeys(input.keys, deps.allowLoopbackJwksUri) : undefined;
  if (!(await deps.environments.get(input.environmentId))) {
    throw bad(`environment_id: no environment "${input.environmentId}".`);
  }
  // A client with keys authenticates with them alone: no secret to leak (behaviour ADMIN-19).
  const secret = input.type === 'confidential' && !keys ? newSecret(deps.random) : undefined;
  const client: Client = {
    clientId: `${deps.clientIdPrefix}${newId('', deps.random)}`,
    name: input.name,
    type: input.type,
    ...(secret ? { secretHash: await deps.hasher.hash(secret) } : {}),
    environmentId: input.environmentId,
    redirectUris: [...new Set(input.redirectUris)],
    grantTypes,
    scopes: [...new Set(input.scopes)],
    registrationType: 'static',
    admin: input.admin,
    test: input.test,
    ...(input.introspectAll ? { introspectAll: true } : {}),
    ...(input.refreshGraceSeconds !== undefined ? { refreshGraceSeconds: input.refreshGraceSeconds } : {}),
    ...(input.requirePushedAuthorizationRequests ? { requirePushedAuthorizationRequests: true } : {}),
    ...keys,
    ...(input.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
    createdAt: isoNow(deps.clock),
  };
  try {
    // A scope deleted while this was being created is refused, never granted (behaviour ADMIN-18).
    const audit = auditEntryOf(deps, actor, { type: 'client.create', clientId: client.clientId, scopes: client.scopes });
    await withCheckedScopes(deps, client.scopes, (catalog) => deps.clients.create(client, undefined, audit, catalog));
  } catch (error) {
    // 80 random bits: a collision means the random source is broken, not a user mistake.
    if (error instanceof ConflictError) throw new Error('generated client_id collided');
    throw error;
  }
  return { client, ...(secret ? { secret } : {}) };
}

export async function getClient(deps: Pick<AdminDependencies, 'clients'>, clientId: string): Promise<Client> {
  return found(await deps.clients.get(clientId), 'client', clientId);
}

export async function listClients(
  deps: Pick<AdminDependencies, 'clients'>,
  registrationType: RegistrationType,
  limit: number,
  cursor?: string,
): Promise<Page<Client>> {
  return pageOf(await deps.clients.list(registrationType, limit, cursor));
}

/** The client and what to change of it. */
export interface ClientUpdate extends Omit<ClientChanges, 'jwks' | 'jwksUri'> {
  readonly clientId: string;
  /** Replaces a private_key_jwt client's keys of the same kind (behaviour ADMIN-19). */
  readonly keys?: Pick<ClientKeysInput, 'jwks' | 'jwksUri'>;
}

/**
 * Renames the client and/or replaces its granted scopes. The client is written first,
 * then its API keys are narrowed: the key exchange also intersects with the client's
 * current scopes (behaviour KEY-12), so a failure between the two never mints an ungranted scope.
 */
export async function updateClient(
  deps: Pick<AdminDependencies, 'clients' | 'scopes' | 'apiKeys' | 'clock'> & Partial<Pick<AdminDependencies, 'allowLoopbackJwksUri'>>,
  actor: AdminActor,
  { clientId, ...changes }: ClientUpdate,
): Promise<Client> {
  const scopes = changes.scopes === undefined ? undefined : [...new Set(changes.scopes)];
  const redirectUris = changes.redirectUris === undefined ? undefined : [...new Set(changes.redirectUris)];
  let keys: ClientKeys | undefined;
  const graceWindow = changes.refreshGraceSeconds;
  if (changes.introspectAll || redirectUris || changes.keys || typeof graceWindow === 'number') {
    const current = await getClient(deps, clientId);
    if (changes.introspectAll && current.type !== 'confidential') throw bad('introspect_all: only a confidential client can introspect.');
    if (redirectUris) checkRedirectUris(current, redirectUris);
    if (changes.keys) keys = replacementKeys(current, changes.keys, deps.allowLoopbackJwksUri);
    if (typeof graceWindow === 'number') checkRefreshGrace(current.grantTypes, graceWindow);
  }
  const fields: ClientChanges = {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(scopes ? { scopes } : {}),
    ...(changes.introspectAll !== undefined ? { introspectAll: changes.introspectAll } : {}),
    ...(redirectUris ? { redirectUris } : {}),
    ...(graceWindow !== undefined ? { refreshGraceSeconds: graceWindow } : {}),
    ...(changes.requirePushedAuthorizationRequests !== undefined
      ? { requirePushedAuthorizationRequests: changes.requirePushedAuthorizationRequests }
      : {}),
    ...(keys?.jwks ? { jwks: keys.jwks } : {}),
    ...(keys?.jwksUri ? { jwksUri: keys.jwksUri } : {}),
    ...(changes.dpopBoundAccessTokens !== undefined ? { dpopBoundAccessTokens: changes.dpopBoundAccessTokens } : {}),
  };
  // Behaviour LOG-9: in the client's own transaction, naming the fields that changed in it.
  const audit = (before: Client, after: Client) =>
    auditEntryOf(deps, actor, { type: 'client.update', clientId, scopes: after.scopes, reason: changedClientFields(before, after) });
  // A scope deleted while this was granting it is refused, never granted (behaviour ADMIN-18).
  const result = await withCheckedScopes(deps, scopes ?? [], (catalog) => deps.clients.update(clientId, fields, audit, catalog));
  if (!result) throw noSuch('client', clientId);
  // On every scope change, not only when this write removed some: a retry after a failed
  // narrowing finds no difference, and must still repair the keys (behaviour KEY-12).
  if (scopes) await deps.apiKeys.restrictKeysToScopes(clientId, result.after.scopes);
  return result.after;
}

/** The client fields an audit entry's reason names when an update changes them. */
const auditedClientFields = [
  'name',
  'scopes',
  'redirectUris',
  'introspectAll',
  'refreshGraceSeconds',
  'requirePushedAuthorizationRequests',
  'jwks',
  'jwksUri',
  'dpopBoundAccessTokens',
] as const;
type AuditedClientField = (typeof auditedClientFields)[number];

/** An absent flag reads as false: setting it false is no change worth an audit reason. */
function comparable(client: Pick<Client, AuditedClientField>, field: AuditedClientField): unknown {
  return field === 'requirePushedAuthorizationRequests' || field === 'dpopBoundAccessTokens' ? client[field] === true : client[field];
}

/** The fields an update changed, by name (the audit entry's reason); never a value. */
function changedClientFields(before: Client, after: Client): string {
  const changed = auditedClientFields.filter(
    (field) => JSON.stringify(comparable(before, field)) !== JSON.stringify(comparable(after, field)),
  );
  return changed.length > 0 ? changed.join(', ') : 'nothing';
}

/** Behaviour REFRESH-7: a window only where refresh tokens rotate, within the server's bound. */
function checkRefreshGrace(grantTypes: readonly GrantType[], seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > maxRefreshGraceSeconds) {
    throw bad(`refresh_grace_seconds: must be a whole number of seconds from 0 to ${maxRefreshGraceSeconds}.`);
  }
  if (!grantTypes.includes('refresh_token'))
    throw bad('refresh_grace_seconds: only a client with the refresh_token grant rotates refresh tokens.');
}

/**
 * Key rotation (behaviour ADMIN-19): a set held with the record is replaced by a set, a jwks_uri by
 * another; a client keeps the way it authenticates (a secret client gets no keys, nor the reverse).
 */
function replacementKeys(
  client: Client,
  keys: Pick<ClientKeysInput, 'jwks' | 'jwksUri'>,
  allowLoopbackHttp: boolean | undefined,
): ClientKeys {
  if (!client.jwks && !client.jwksUri)
    throw bad('jwks, jwks_uri: only a client registered with keys (private_key_jwt) has keys to replace.');
  if ((client.jwks && keys.jwksUri !== undefined) || (client.jwksUri && keys.jwks !== undefined)) {
    throw bad(
      `${client.jwks ? 'jwks' : 'jwks_uri'}: this client's keys are replaced with the same kind (${client.jwks ? 'jwks' : 'jwks_uri'}).`,
    );
  }
  return checkedKeys(keys, allowLoopbackHttp);
}

/**
 * The same rules as at creation (checkShape). A dynamic client's redirect URIs are its own
 * registration's (RFC 7591), so an admin does not rewrite them.
 */
function checkRedirectUris(client: Client, redirectUris: readonly string[]): void {
  if (client.registrationType !== 'static') throw bad("redirect_uris: only a static client's redirect URIs can be edited here.");
  if (!client.grantTypes.some((g) => grantTypeFacts[g].redirectsToClient)) throw noRedirectingGrant();
  checkRedirectUriUse(client.grantTypes, redirectUris);
  for (const [index, uri] of redirectUris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw bad(`redirect_uris.${index}: ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
}

/**
 * Takes effect at once, in every container: client records are read afresh (strongly
 * consistent) by every token request, authorization step and bearer check, so once this
 * returns no token of any kind is issued to the client and its live access tokens are
 * inactive at introspection, userinfo and validate. Its refresh tokens can never be redeemed
 * again (the refresh grant authenticates the client first, and a client id is never reissued).
 * Its API keys are revoked first, each with an audit entry, so a failure part-way leaves the
 * client in place and a retried DELETE finishes the job.
 */
export async function deleteClient(
  deps: Pick<AdminDependencies, 'clients' | 'apiKeys' | 'clock'>,
  actor: AdminActor,
  clientId: string,
): Promise<void> {
  await getClient(deps, clientId);
  await deps.apiKeys.revokeKeysOfClient(clientId, { at: isoNow(deps.clock), actor, reason: 'client deleted' });
  if (!(await deps.clients.delete(clientId, auditEntryOf(deps, actor, { type: 'client.delete', clientId })))) {
    throw noSuch('client', clientId);
  }
}
