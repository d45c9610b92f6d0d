/**
 * Behaviour ADMIN-13: the grant combinations an admin-created client may have, read from the grant
 * facts (lambdas/core/grants/grant-types.ts: confidentialOnly, requires, redirectsToClient). Every
 * refusal happens before anything is read or written, and says what to change.
 */
import { createClient, type NewClient } from '../../../lambdas/core/admin/clients';
import type { AdminActor } from '../../../lambdas/core/admin/audit';
import { InvalidRequestError } from '../../../lambdas/core/errors';

/** Past the shape checks, the use case looks the environment up first: this says a client got there. */
const passed = new Error('passed the shape checks');
const deps = {
  adminScope: 'admin',
  environments: {
    get: async () => {
      throw passed;
    },
  },
} as unknown as Parameters<typeof createClient>[0];
const base: NewClient = { type: 'confidential', name: 'c', environmentId: 'env', scopes: [], redirectUris: [], admin: false, test: false };
const cb = ['https://app.example.test/cb'];

test.each<[string, Partial<NewClient>, string]>([
  [
    'a public client with a grant for confidential clients only',
    { type: 'public', redirectUris: cb, grantTypes: ['authorization_code', 'client_credentials'] },
    'grant_types: a public client has no secret, so it cannot use client_credentials.',
  ],
  [
    'a public client without authorization_code',
    { type: 'public', grantTypes: ['refresh_token'] },
    'grant_types: a public client needs authorization_code.',
  ],
  [
    'refresh_token without authorization_code',
    { grantTypes: ['client_credentials', 'refresh_token'] },
    'grant_types: refresh_token needs authorization_code.',
  ],
  [
    'authorization_code without a redirect URI',
    { grantTypes: ['authorization_code'] },
    'redirect_uris: authorization_code needs at least one redirect URI.',
  ],
  [
    'redirect URIs without a grant that redirects',
    { grantTypes: ['client_credentials'], redirectUris: cb },
    'redirect_uris: only clients with authorization_code use redirect URIs.',
  ],
  ['no grant type', { grantTypes: [] }, 'grant_types: must name at least one grant type.'],
])('refuses %s, naming what to change', async (_what, input, description) => {
  const refused = createClient(deps, {} as AdminActor, { ...base, ...input });
  await expect(refused).rejects.toThrow(InvalidRequestError);
  await expect(refused).rejects.toThrow(description);
});

test.each<[string, Partial<NewClient>]>([
  ['the browser flow with a redirect URI', { type: 'public', redirectUris: cb, grantTypes: ['authorization_code', 'refresh_token'] }],
  ['client_credentials alone, without redirect URIs', { grantTypes: ['client_credentials'] }],
  [
    'every grant on a confidential client with a redirect URI',
    { redirectUris: cb, grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] },
  ],
  ['the defaults of a public client', { type: 'public', redirectUris: cb }],
])('accepts %s', async (_what, input) => {
  await expect(createClient(deps, {} as AdminActor, { ...base, ...input })).rejects.toBe(passed);
});
