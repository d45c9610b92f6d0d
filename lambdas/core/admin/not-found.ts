/** Behaviour ADMIN-3: an unknown id is `404 not_found`, and the description names what was asked for. */
import { NotFoundError } from '../errors';

export type AdminRecordKind = 'client' | 'environment' | 'scope' | 'trusted issuer' | 'user';

export const noSuch = (kind: AdminRecordKind, id: string): NotFoundError => new NotFoundError(`No ${kind} "${id}".`);

/** The record a read found, else the 404 naming it. */
export function found<T>(record: T | undefined, kind: AdminRecordKind, id: string): T {
  if (record === undefined) throw noSuch(kind, id);
  return record;
}
