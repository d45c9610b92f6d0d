/**
 * The dashboard's form rules that need no storage: where a refusal's problem is shown and what
 * comes back (behaviour DASH-14), and the create-client form's environment (DASH-15).
 */
import { defaultEnvironmentOf, scopesOfForm } from '../../../lambdas/presentation/dashboard/client-form-fields';
import { refusedForm } from '../../../lambdas/presentation/dashboard/forms';

const environment = (id: string, name: string, dcr = false) => ({ id, name, dcr, createdAt: '2030-01-01T00:00:00.000Z' });

describe('behaviour DASH-14: a refused form', () => {
  const fields = ['name', 'email', 'password', 'redirect_uris'];

  it('puts a problem that names a field of the form (a zod path too) beside it', () => {
    expect(refusedForm({ name: 'x' }, { status: 400, description: 'name: too long.' }, { fields }).problem).toEqual({
      field: 'name',
      message: 'too long.',
    });
    expect(refusedForm({}, { status: 400, description: 'redirect_uris.2: "x" is not https.' }, { fields }).problem?.field).toBe(
      'redirect_uris',
    );
  });

  it('puts a problem naming no field of the form at its top; a conflict without a field beside the conflict field', () => {
    expect(refusedForm({}, { status: 400, description: 'jwks: not JSON.' }, { fields }).problem).toEqual({ message: 'jwks: not JSON.' });
    expect(
      refusedForm({}, { status: 409, description: 'A user with the email "a@b.c" already exists.' }, { fields, conflictField: 'email' })
        .problem,
    ).toEqual({ field: 'email', message: 'A user with the email "a@b.c" already exists.' });
    expect(refusedForm({}, { status: 400, description: 'Something else.' }, { fields, conflictField: 'email' }).problem).toEqual({
      message: 'Something else.',
    });
  });

  it('never brings a password or the CSRF token back', () => {
    const state = refusedForm({ name: 'n', password: 'hunter22', csrf: 't' }, { status: 400, description: 'x' }, { fields });
    expect(state.values).toEqual({ name: 'n' });
    expect(state.refilled).toBe(true);
  });
});

describe('behaviour DASH-15: the client form', () => {
  it('starts on "Default", never on the self-registration environment', () => {
    const dcr = environment('env_dcr', 'Default', true);
    expect(defaultEnvironmentOf([dcr, environment('env_a', 'Staging'), environment('env_d', 'Default')], 'env_dcr')).toBe('env_d');
    expect(defaultEnvironmentOf([dcr, environment('env_a', 'Staging')], 'env_dcr')).toBe('env_a');
    expect(defaultEnvironmentOf([environment('env_x', 'Only')], 'env_x')).toBe('env_x');
    expect(defaultEnvironmentOf([], undefined)).toBeUndefined();
  });

  it('reads the ticked scope boxes and typed scopes, each once; a box not "on" is refused', () => {
    expect(scopesOfForm({ 'scope:read': 'on', scopes: 'write read', name: 'x' })).toEqual(['write', 'read']);
    expect(() => scopesOfForm({ 'scope:read': 'yes' })).toThrow(/scopes: the box of "read" must be "on"/);
  });
});
