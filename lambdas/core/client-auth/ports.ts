/**
 * The client-authentication room's port: the client record as stored now, so a deleted client is
 * refused at once (behaviour ADMIN-16). The client repository's lookup satisfies it; the hasher
 * and the verified-secret cache are the core's own (core/ports.ts, core/verified-secret-cache.ts).
 */
import type { Client } from '../model';

export type FindClient = (clientId: string) => Promise<Client | undefined>;
