/** Admin operations on users: create, read, update, delete (behaviour ADMIN-5..ADMIN-7). */
import { ConflictError, ConflictRequestError } from '../errors';
import { newId } from '../ids';
import type { User } from '../model';
import { endSignIns, nextCredentialVersion } from '../account/password-change';
import { type AdminActor, auditEntryOf } from './audit';
import { found } from './not-found';
import { pageOf } from './filtered-pages';
import { isoNow, type AdminDependencies, type Page, type UserChanges } from './ports';

export interface NewUser {
  /** Already trimmed and lower-cased by the caller's schema. */
  readonly email?: string;
  readonly name: string;
  readonly password?: string;
  readonly admin: boolean;
  readonly test: boolean;
}

export type UserUpdate = Partial<Omit<NewUser, 'email'>> & { readonly email?: string };

export async function getUser(deps: Pick<AdminDependencies, 'users'>, id: string): Promise<User> {
  return found(await deps.users.get(id), 'user', id);
}

export async function listUsers(deps: Pick<AdminDependencies, 'users'>, limit: number, cursor?: string): Promise<Page<User>> {
  return pageOf(await deps.users.list(limit, cursor));
}

const emailTaken = (email: string) => new ConflictRequestError(`A user with the email "${email}" already exists.`);

/** Behaviour LOG-9: the `user.create` entry is written in the user's own transaction. */
export async function createUser(
  deps: Pick<AdminDependencies, 'users' | 'hasher' | 'random' | 'clock'>,
  actor: AdminActor,
  input: NewUser,
): Promise<User> {
  // Checked first so a duplicate costs no Argon2id; the transaction still decides races.
  if (input.email && (await deps.users.findByEmail(input.email))) throw emailTaken(input.email);
  const passwordHash = input.password === undefined ? undefined : await deps.hasher.hash(input.password);
  const user: User = {
    id: newId('usr_', deps.random),
    ...(input.email ? { email: input.email } : {}),
    name: input.name,
    ...(passwordHash ? { passwordHash } : {}),
    admin: input.admin,
    test: input.test,
    createdAt: isoNow(deps.clock),
  };
  try {
    await deps.users.create(
      user,
      auditEntryOf(deps, actor, { type: 'user.create', userId: user.id, ...(user.admin ? { reason: 'admin' } : {}) }),
    );
  } catch (error) {
    if (error instanceof ConflictError) throw emailTaken(input.email ?? '');
    throw error;
  }
  return user;
}

/** The fields an update changes, by name (never a value: the audit entry's reason); a new password always counts. */
function changedFields(current: User, update: UserUpdate): string {
  const changed = (['name', 'email', 'admin', 'test'] as const).filter((f) => update[f] !== undefined && update[f] !== current[f]);
  const fields = [...changed, ...(update.password !== undefined ? ['password'] : [])];
  return fields.length > 0 ? fields.join(', ') : 'nothing';
}

/** Behaviour LOG-9: the `user.update` entry (the changed field names) is written in the user's own transaction. */
export async function updateUser(
  deps: AdminDependencies,
  actor: AdminActor,
  { userId: id, ...update }: UserUpdate & { readonly userId: string },
): Promise<User> {
  const current = await getUser(deps, id);
  if (update.email !== undefined && update.email !== current.email) {
    const holder = await deps.users.findByEmail(update.email);
    if (holder && holder.id !== id) throw emailTaken(update.email);
  }
  const changes: UserChanges = {
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.email !== undefined ? { email: update.email } : {}),
    ...(update.admin !== undefined ? { admin: update.admin } : {}),
    ...(update.test !== undefined ? { test: update.test } : {}),
    ...(update.password !== undefined
      ? { passwordHash: await deps.hasher.hash(update.password), credentialVersion: nextCredentialVersion(current) }
      : {}),
    // A new address is not verified; the old one's verification says nothing about it.
    ...(update.email !== undefined && update.email !== current.email ? { emailVerifiedAt: undefined } : {}),
  };
  try {
    const audit = auditEntryOf(deps, actor, { type: 'user.update', userId: id, reason: changedFields(current, update) });
    const updated = await deps.users.update(current, changes, isoNow(deps.clock), audit);
    if (update.password !== undefined) {
      // A password reset is how an admin locks out whoever knew the old one: end their sign-ins too.
      await endSignIns(deps, id);
      // The old address too: if the address changed with the password, its owner must hear of it.
      await deps.notifyPasswordChanged(
        updated,
        [current.email, updated.email].filter((e): e is string => e !== undefined),
      );
    }
    return updated;
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new ConflictRequestError('The user was changed by another request, or the email was just taken; read it again and retry.');
    }
    throw error;
  }
}

/**
 * Behaviour ADMIN-7: deletes the user and everything that lets them in. The credentials go
 * first (API keys, sessions and refresh families, passkeys, environment grants) and the user
 * record last, in one transaction with its email item and the `user.delete` audit entry. A
 * call that fails part-way leaves the user visible, and a retry finishes the job (each step is
 * idempotent); the other order left live credentials or grants behind a 404. Not one
 * transaction: a user's grants, keys, sessions and passkeys have no upper bound, and a
 * DynamoDB transaction takes at most 100 items.
 */
export async function deleteUser(
  deps: Pick<AdminDependencies, 'users' | 'apiKeys' | 'sessions' | 'tokens' | 'passkeys' | 'clock'>,
  actor: AdminActor,
  id: string,
): Promise<void> {
  const user = await getUser(deps, id);
  await deps.apiKeys.deleteKeysOfUser(id);
  await endSignIns(deps, id);
  await deps.passkeys.removeAllOf(id);
  await deps.users.delete(user, auditEntryOf(deps, actor, { type: 'user.delete', userId: id }));
}
