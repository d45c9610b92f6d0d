/**
 * Creating an API key (behaviour KEY-6, KEY-11, KEY-14, KEY-15, KEYM-5). Admin callers name the
 * bound user; self-service callers are bound to themselves, must have an email address (else
 * 400 and nothing is written), and are mailed before the key is activated. If that mail cannot
 * be delivered the key is revoked without ever having been active, and the call fails (behaviour
 * KEY-14), so no one holds a key its user was never told about.
 */
import { InvalidRequestError, NotFoundError, TemporarilyUnavailableError } from '../errors';
import { isoNow } from '../admin/ports';
import { isUsersOwnKey, type ApiKey, type AuditEntry, type Client, type User } from '../model';
import type { Notifier } from '../ports';
import { newApiKey } from './format';
import { actorOf, type KeyManager } from './caller';
import { keyCreatedNotice } from './notification';
import type { ApiKeyAdminDependencies, CreateOutcome } from './ports';
import { snapshotScopes } from './scopes';

/** Self-service creation also mails the bound user (behaviour KEY-14). */
export interface ApiKeyCreateDependencies extends ApiKeyAdminDependencies {
  readonly notifier: Notifier<'api-key-created'>;
  /** The issuer (`{base_url}`): the mail names the address that revokes the key. */
  readonly issuer: string;
}

export interface NewApiKeyInput {
  /** Admin callers only. */
  readonly userId?: string;
  readonly name?: string;
  /** ISO 8601; must be in the future. */
  readonly expiresAt?: string;
  readonly scopes?: readonly string[];
}

export interface CreatedApiKey {
  readonly key: ApiKey;
  /** The full presented key and its secret, in the clear this one time. */
  readonly apiKey: string;
  readonly secret: string;
}

const bad = (description: string) => new InvalidRequestError(description);

export async function requireClient(deps: Pick<ApiKeyAdminDependencies, 'clients'>, clientId: string): Promise<Client> {
  const client = await deps.clients.get(clientId);
  if (!client) throw new NotFoundError(`No client "${clientId}".`);
  return client;
}

async function boundUser(deps: ApiKeyAdminDependencies, manager: KeyManager, input: NewApiKeyInput): Promise<User> {
  if (manager.kind === 'self-service') {
    if (input.userId !== undefined) throw bad('userId: not accepted from a self-service caller; the key is bound to your own user.');
    const user = await deps.users.get(manager.userId);
    if (!user) throw bad('Your user no longer exists.');
    // Behaviour KEY-14: no email, no notification, so no key (checked before anything is written).
    if (!user.email) throw bad('Your user has no email address, so the key cannot be announced to you; no key was created.');
    return user;
  }
  if (input.userId === undefined) throw bad('userId: required: the user whose id becomes the sub of the tokens the key mints.');
  const user = await deps.users.get(input.userId);
  if (!user) throw bad(`userId: no user "${input.userId}".`);
  return user;
}

function expiryOf(value: string | undefined, nowMs: number): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw bad('expiresAt: must be an ISO 8601 timestamp.');
  if (at <= nowMs) throw bad('expiresAt: must be in the future.');
  // The exchange compares ISO strings; past year 9999 they gain a sign and sort wrongly.
  if (at >= Date.UTC(10000, 0, 1)) throw bad('expiresAt: must be before the year 10000.');
  return new Date(at).toISOString();
}

/** The key as it will be stored, and its secret in the clear (shown once, only after the key is active). */
async function newKey(deps: ApiKeyAdminDependencies, manager: KeyManager, client: Client, user: User, input: NewApiKeyInput) {
  // The per-user index's sort key holds the client id; DynamoDB caps sort keys at 1024 bytes.
  // Only metadata-document clients (URLs, and public) have ids that long: no keys for them.
  if (Buffer.byteLength(client.clientId, 'utf8') > 256) throw bad('API keys are not available for this client.');
  const scopes = snapshotScopes(input.scopes, client, manager.kind === 'self-service' ? manager.scopes : undefined);
  const expiresAt = expiryOf(input.expiresAt, deps.clock.now());
  const created = newApiKey(deps.random);
  // Self-served, or an admin user's key bound to their own account (isUsersOwnKey).
  const own = isUsersOwnKey({ createdBy: actorOf(manager), userId: user.id });
  // The generation the caller's token check read, not this create's own later read of the user: a
  // reset's "Remove all" between the two must still end the key (behaviour KEY-17, RESET-13).
  const generation = manager.generation ?? user.apiKeyGeneration ?? 0;
  const key: ApiKey = {
    keyId: created.keyId,
    clientId: client.clientId,
    userId: user.id,
    ...(input.name !== undefined ? { name: input.name } : {}),
    scopes,
    secretHash: await deps.hasher.hash(created.secret),
    createdAt: isoNow(deps.clock),
    createdBy: actorOf(manager),
    ...(expiresAt ? { expiresAt } : {}),
    // Behaviour KEY-17: a self-service key belongs to the user's current key generation, which
    // the reset's "Remove all" moves (RESET-13); a create in flight across that move makes a key
    // of the old generation, which never exchanges.
    ...(own && generation > 0 ? { generation } : {}),
    // Behaviour MFA-12: a key of the user's own is as strong as the sign-in that made it.
    ...(own && manager.amr?.length ? { amr: [...manager.amr] } : {}),
  };
  return { key, apiKey: created.key, secret: created.secret };
}

/** What a create's write answered, as the caller is told (the transaction re-checks what was read, closing the races with a user deletion and a scope ungrant). */
function checkOutcome(outcome: CreateOutcome, key: ApiKey): void {
  if (outcome === 'id-taken') throw new Error(`generated API key id ${key.keyId} is taken`);
  if (outcome === 'user-gone') throw bad(`userId: no user "${key.userId}".`);
  if (outcome === 'client-changed')
    throw new TemporarilyUnavailableError(
      'The client changed while the key was created; retry.',
      `client ${key.clientId} scopes or existence changed`,
    );
}

/**
 * Behaviour KEY-6, KEY-14, KEY-15. The key is written `pending` (no reader sees it), the
 * self-service user is mailed, and only then is the key activated, in one transaction with its
 * `api_key.create` entry; the secret is shown only after that. So a create answered with an
 * error leaves no active key: a failed first write or mail leaves at most a pending record,
 * which TTL removes, and nothing has to be undone (an undo is one more write that can fail).
 */
export async function createApiKey(
  deps: ApiKeyCreateDependencies,
  manager: KeyManager,
  { clientId, ...input }: NewApiKeyInput & { readonly clientId: string },
): Promise<CreatedApiKey> {
  const client = await requireClient(deps, clientId);
  const user = await boundUser(deps, manager, input);
  // Behaviour KEY-3: a test user may be bound only to a test client.
  if (user.test && !client.test) throw bad('userId: a test user may be bound only to a test client.');
  const created = await newKey(deps, manager, client, user, input);
  const { key } = created;
  checkOutcome(await deps.keys.writePending(key), key);
  if (manager.kind === 'self-service') await notify(deps, key, client, user);
  const audit: AuditEntry = {
    type: 'api_key.create',
    clientId: key.clientId,
    keyId: key.keyId,
    userId: key.userId,
    scopes: key.scopes,
    actor: key.createdBy,
    at: key.createdAt,
  };
  checkOutcome(await deps.keys.activate(key, audit), key);
  return created;
}

/**
 * Behaviour KEY-14: the user hears of the key before it can be used. An undeliverable mail ends
 * the pending key as `revoked` (the spec's state: the record stays, listed, with its
 * `api_key.revoke` entry), so it can never be activated. That write may fail too: the key then
 * stays pending, which no reader sees and nothing can use, until TTL removes it.
 */
async function notify(deps: ApiKeyCreateDependencies, key: ApiKey, client: Client, user: User): Promise<void> {
  try {
    await deps.notifier.notify(user.email!, keyCreatedNotice(key, client, user, deps.issuer));
  } catch (cause) {
    const revokedAt = isoNow(deps.clock);
    await deps.keys
      .revoke(key, revokedAt, {
        type: 'api_key.revoke',
        clientId: key.clientId,
        keyId: key.keyId,
        userId: key.userId,
        actor: key.createdBy,
        reason: 'notification email undeliverable',
        at: revokedAt,
      })
      .catch(() => undefined); // the mail's failure is the one to report; a pending key is harmless
    throw new MailUndeliverableError(key.keyId, cause);
  }
}

/** Behaviour KEY-14 "notification email cannot be delivered": 503, the key never active and revoked. */
export class MailUndeliverableError extends TemporarilyUnavailableError {
  constructor(keyId: string, cause: unknown) {
    super(
      `The notification email could not be delivered, so the new key ${keyId} was revoked without ever being usable. Try again later.`,
      `mail for key ${keyId} failed: ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
  }
}
