/**
 * Password sign-in, the domain half: one answer for an unknown email, a user without a
 * password and a wrong password, and about the same time for each (an Argon2id
 * verification runs in every case), so the form cannot be used to enumerate accounts.
 */
import type { User } from './model';
import type { Hasher } from './ports';

export interface SignInDependencies {
  readonly findUserByEmail: (email: string) => Promise<User | undefined>;
  readonly hasher: Hasher;
}

/** The user whose password this is, or undefined; the caller shows one generic message. */
export async function verifyCredentials(deps: SignInDependencies, email: string, password: string): Promise<User | undefined> {
  const user = await deps.findUserByEmail(email.trim().toLowerCase());
  if (!user?.passwordHash) {
    await deps.hasher.verifyDummy(password);
    return undefined;
  }
  return (await deps.hasher.verify(user.passwordHash, password)) ? user : undefined;
}

/**
 * Where to send the browser after sign-in: only a same-origin relative path, so the sign-in
 * form cannot be turned into an open redirector (`//evil.example`, `/\evil.example`,
 * `https://evil.example` are all ignored). The check applies to the input and again to the
 * normalised path that is sent: `/.//evil.example/` normalises to `//evil.example/`, which a
 * browser reads as another host.
 */
export function safeReturnTo(value: string | undefined): string | undefined {
  if (!value || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // Browsers drop tabs and newlines in URLs and treat `\` as `/`: refuse anything that could reparse.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  const base = 'https://origin.invalid';
  try {
    const url = new URL(value, base);
    const path = `${url.pathname}${url.search}${url.hash}`;
    return url.origin === base && !path.startsWith('//') ? path : undefined;
  } catch {
    return undefined;
  }
}
