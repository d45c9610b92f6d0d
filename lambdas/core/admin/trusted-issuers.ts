/**
 * Admin operations on trusted issuers (behaviour TRUST-1..TRUST-9): the admin API and the
 * dashboard both call these, and each change writes its audit entry in its own transaction
 * (behaviour LOG-9).
 */
import { ConflictError, ConflictRequestError, InvalidRequestError, ScopeCatalogChangedError } from '../errors';
import { newId } from '../ids';
import type { TrustedIssuer, TrustedIssuerProfile, WorkloadRule } from '../trusted-issuers/model';
import { issuerProblem, jwksProblem, jwksUriProblem, maxRules, ruleProblem } from '../trusted-issuers/validation';
import { type AdminActor, auditEntryOf } from './audit';
import { found } from './not-found';
import { isoNow, type AdminDependencies, type CatalogCheck, type Page } from './ports';

const bad = (description: string) => new InvalidRequestError(description);

export type TrustedIssuerDependencies = Pick<
  AdminDependencies,
  'trustedIssuers' | 'environments' | 'scopes' | 'clock' | 'random' | 'adminScope'
>;

type Keys = { readonly jwks: NonNullable<TrustedIssuer['jwks']> } | { readonly jwksUri: string };

/** What an admin may set of a trusted issuer: at creation all of it, in an update all but what identifies it. */
export interface TrustedIssuerSettings {
  readonly jwks?: TrustedIssuer['jwks'];
  readonly jwksUri?: string;
  /** `null` in an update removes it. */
  readonly description?: string | null;
  readonly userClaim?: 'sub' | 'email';
  readonly createUsers?: boolean;
  readonly allowRefreshTokens?: boolean;
  readonly rules?: readonly WorkloadRule[];
}

export interface NewTrustedIssuer extends TrustedIssuerSettings {
  readonly issuer: string;
  readonly profile: TrustedIssuerProfile;
  readonly environmentId: string;
}

export async function getTrustedIssuer(deps: Pick<AdminDependencies, 'trustedIssuers'>, id: string): Promise<TrustedIssuer> {
  return found(await deps.trustedIssuers.get(id), 'trusted issuer', id);
}

export function listTrustedIssuers(
  deps: Pick<AdminDependencies, 'trustedIssuers'>,
  limit: number,
  cursor?: string,
): Promise<Page<TrustedIssuer>> {
  return deps.trustedIssuers.list(limit, cursor);
}

/** Behaviour TRUST-3..TRUST-6: checked, then written with its `trusted_issuer.create` entry; a second trust of the issuer is 409. */
export async function createTrustedIssuer(
  deps: TrustedIssuerDependencies,
  actor: AdminActor,
  input: NewTrustedIssuer,
): Promise<TrustedIssuer> {
  const issuerIssue = issuerProblem(input.issuer);
  if (issuerIssue) throw bad(`issuer: ${issuerIssue}.`);
  const keys = keysOf(input);
  if (!keys) throw bad('jwks, jwks_uri: exactly one of them must be given (the keys that verify the issuer’s assertions).');
  checkProfileSettings(input.profile, input);
  if (input.profile === 'workload' && input.rules === undefined) throw bad('rules: a workload issuer needs its rules.');
  if (!(await deps.environments.get(input.environmentId))) throw bad(`environment_id: no environment "${input.environmentId}".`);
  const trusted: TrustedIssuer = {
    trustedIssuerId: newId('tri_', deps.random),
    environmentId: input.environmentId,
    issuer: input.issuer,
    profile: input.profile,
    ...keys,
    ...(input.description ? { description: input.description } : {}),
    ...(input.profile === 'id-jag'
      ? {
          userClaim: input.userClaim ?? 'sub',
          createUsers: input.createUsers ?? false,
          allowRefreshTokens: input.allowRefreshTokens ?? false,
        }
      : { rules: input.rules ?? [] }),
    createdAt: isoNow(deps.clock),
  };
  const audit = auditEntryOf(deps, actor, {
    type: 'trusted_issuer.create',
    trustedIssuerId: trusted.trustedIssuerId,
    issuer: trusted.issuer,
    environmentId: trusted.environmentId,
  });
  let created: boolean;
  try {
    created = await withCheckedRuleScopes(deps, input.rules, (catalog) => deps.trustedIssuers.create(trusted, audit, catalog));
  } catch (error) {
    if (error instanceof ConflictError) throw await alreadyTrusted(deps, trusted);
    throw error;
  }
  // The environment was deleted after it was read: nothing was written.
  if (!created) throw bad(`environment_id: no environment "${input.environmentId}".`);
  return trusted;
}

/** Behaviour TRUST-2: the 409 names where the issuer is trusted already. */
async function alreadyTrusted(deps: Pick<AdminDependencies, 'trustedIssuers'>, trusted: TrustedIssuer): Promise<ConflictRequestError> {
  if (trusted.profile === 'id-jag')
    return new ConflictRequestError(
      `The issuer "${trusted.issuer}" is already trusted for id-jag in environment "${trusted.environmentId}".`,
    );
  const other = await deps.trustedIssuers.workloadIssuer(trusted.issuer);
  return new ConflictRequestError(
    `The issuer "${trusted.issuer}" is already a workload issuer${other ? ` (in environment "${other.environmentId}")` : ''}; ` +
      'a workload token names no environment, so an issuer URL can be a workload issuer in one environment only.',
  );
}

/**
 * Behaviour TRUST-7: changes all but the issuer, its profile and its environment (a different
 * trust: delete this one and create that). Keys given replace the old ones, `jwks` and
 * `jwks_uri` alike; the record is written on the condition that it is still the one read.
 */
export async function updateTrustedIssuer(
  deps: TrustedIssuerDependencies,
  actor: AdminActor,
  id: string,
  changes: TrustedIssuerSettings,
): Promise<TrustedIssuer> {
  const current = await getTrustedIssuer(deps, id);
  if (changes.jwks !== undefined && changes.jwksUri !== undefined) throw bad('jwks, jwks_uri: give one of them, not both.');
  const keys = changes.jwks !== undefined || changes.jwksUri !== undefined ? keysOf(changes) : undefined;
  checkProfileSettings(current.profile, changes);
  const { jwks: _jwks, jwksUri: _jwksUri, description: _description, ...unchanged } = current;
  const description = changes.description === undefined ? current.description : (changes.description ?? undefined);
  const next: TrustedIssuer = {
    ...unchanged,
    ...(keys ?? (current.jwks ? { jwks: current.jwks } : { jwksUri: current.jwksUri! })),
    ...(description ? { description } : {}),
    ...(changes.userClaim !== undefined ? { userClaim: changes.userClaim } : {}),
    ...(changes.createUsers !== undefined ? { createUsers: changes.createUsers } : {}),
    ...(changes.allowRefreshTokens !== undefined ? { allowRefreshTokens: changes.allowRefreshTokens } : {}),
    ...(changes.rules !== undefined ? { rules: changes.rules } : {}),
    updatedAt: isoNow(deps.clock),
  };
  const audit = auditEntryOf(deps, actor, {
    type: 'trusted_issuer.update',
    trustedIssuerId: id,
    issuer: current.issuer,
    environmentId: current.environmentId,
    reason: changedFields(current, next),
  });
  if (await withCheckedRuleScopes(deps, changes.rules, (catalog) => deps.trustedIssuers.update(current, next, audit, catalog))) return next;
  await getTrustedIssuer(deps, id);
  throw new ConflictRequestError(`The trusted issuer "${id}" was changed by another request meanwhile; read it again and retry.`);
}

/** Behaviour TRUST-8: gone for the grant in every container within 30 s (TRUST-2); tokens already issued run out on their own. */
export async function deleteTrustedIssuer(
  deps: Pick<AdminDependencies, 'trustedIssuers' | 'clock'>,
  actor: AdminActor,
  id: string,
): Promise<void> {
  const current = await getTrustedIssuer(deps, id);
  await deps.trustedIssuers.delete(
    current,
    auditEntryOf(deps, actor, {
      type: 'trusted_issuer.delete',
      trustedIssuerId: id,
      issuer: current.issuer,
      environmentId: current.environmentId,
    }),
  );
}

/** Behaviour TRUST-4: the one set of keys given, checked; undefined when none or both are. */
function keysOf(settings: Pick<TrustedIssuerSettings, 'jwks' | 'jwksUri'>): Keys | undefined {
  if ((settings.jwks === undefined) === (settings.jwksUri === undefined)) return undefined;
  if (settings.jwks !== undefined) {
    const problem = jwksProblem(settings.jwks);
    if (problem) throw bad(`jwks: ${problem}.`);
    return { jwks: settings.jwks };
  }
  const problem = jwksUriProblem(settings.jwksUri!);
  if (problem) throw bad(`jwks_uri: ${problem}.`);
  return { jwksUri: settings.jwksUri! };
}

/** Behaviour TRUST-5, TRUST-6: each profile's own settings, and none of the other's. */
function checkProfileSettings(profile: TrustedIssuerProfile, settings: TrustedIssuerSettings): void {
  if (profile === 'id-jag') {
    if (settings.rules !== undefined) throw bad('rules: only a workload issuer has rules.');
    return;
  }
  const idJagOnly = (
    [
      ['user_claim', settings.userClaim],
      ['create_users', settings.createUsers],
      ['allow_refresh_tokens', settings.allowRefreshTokens],
    ] as const
  ).find(([, value]) => value !== undefined);
  if (idJagOnly) throw bad(`${idJagOnly[0]}: only an id-jag issuer has it.`);
  const rules = settings.rules;
  if (rules === undefined) return;
  if (rules.length === 0 || rules.length > maxRules) throw bad(`rules: must hold 1 to ${maxRules} rules.`);
  for (const [index, rule] of rules.entries()) {
    const problem = ruleProblem(rule);
    if (problem) throw bad(`rules.${index}.${problem}.`);
  }
}

/**
 * Behaviour TRUST-6: a rule's scopes are in the catalog (read strongly consistently, as a
 * client's, ADMIN-12), never the admin scope: the admin API is for admin clients and admin users.
 * The write is conditioned on the catalog as checked: a scope deleted in between fails it
 * unwritten, and the check runs again and names the scope (behaviour ADMIN-18, as withCheckedScopes).
 */
async function withCheckedRuleScopes<T>(
  deps: Pick<AdminDependencies, 'scopes' | 'adminScope'>,
  rules: readonly WorkloadRule[] | undefined,
  write: (catalog: CatalogCheck | undefined) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const catalog = await checkRuleScopes(deps, rules);
    try {
      return await write(catalog);
    } catch (error) {
      if (!(error instanceof ScopeCatalogChangedError) || attempt >= 3) throw error;
    }
  }
}

async function checkRuleScopes(
  deps: Pick<AdminDependencies, 'scopes' | 'adminScope'>,
  rules: readonly WorkloadRule[] | undefined,
): Promise<CatalogCheck | undefined> {
  if (!rules) return undefined;
  const admin = rules.findIndex((rule) => rule.scopes.includes(deps.adminScope));
  if (admin >= 0) throw bad(`rules.${admin}.scopes: the "${deps.adminScope}" scope cannot be given to a workload.`);
  const names = [...new Set(rules.flatMap((rule) => rule.scopes))];
  if (names.length === 0) return undefined;
  const { catalogVersion, missing } = await deps.scopes.checkScopes(names);
  if (missing.length === 0) return { catalogVersion };
  const index = rules.findIndex((rule) => rule.scopes.some((scope) => missing.includes(scope)));
  const unknown = rules[index]!.scopes.filter((scope) => missing.includes(scope));
  throw bad(`rules.${index}.scopes: unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}.`);
}

/** The fields an update changed, by their wire names (the audit entry's reason); never a value. */
function changedFields(before: TrustedIssuer, after: TrustedIssuer): string {
  const fields = [
    ['jwks', 'jwks'],
    ['jwksUri', 'jwks_uri'],
    ['description', 'description'],
    ['userClaim', 'user_claim'],
    ['createUsers', 'create_users'],
    ['allowRefreshTokens', 'allow_refresh_tokens'],
    ['rules', 'rules'],
  ] as const;
  const changed = fields.filter(([field]) => canonical(before[field]) !== canonical(after[field])).map(([, name]) => name);
  return changed.length > 0 ? changed.join(', ') : 'nothing';
}

/** JSON with every object's members in name order: a record read back from storage may hold them in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_name, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : 1)))
      : member,
  );
}
