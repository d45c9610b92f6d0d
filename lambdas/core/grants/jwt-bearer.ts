/**
 * The JWT-bearer grant (RFC 7523 2.1, `urn:ietf:params:oauth:grant-type:jwt-bearer`) in its two
 * profiles, told apart by whether the request authenticates a client (behaviour JWTB-1): a client
 * presents an ID-JAG for a user (id-jag.ts); a workload, with no client credentials at all,
 * presents its platform's token (workload-identity.ts). Each trusts only the issuers an
 * administrator configured (lambdas/core/trusted-issuers).
 */
import * as z from 'zod/mini';
import { formField, type GrantImplementation } from './grant';
import { idJagGrant } from './id-jag';
import { workloadGrant } from './workload-identity';

/** RFC 7523 2.1 (`assertion`), RFC 6749 3.3 (`scope`), RFC 8707 2 (`resource`). */
const parameters = z.object({
  assertion: formField.required(8192),
  scope: formField.optional(2048),
  resource: formField.optional(2048),
});

export const jwtBearer: GrantImplementation<typeof parameters> = {
  parameters,
  issue: (client, p, activity, deps, proven) => idJagGrant(client, p, activity, deps, proven),
  issueWithoutClient: (p, activity, deps) => workloadGrant(p, activity, deps),
};
