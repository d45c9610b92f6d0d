import { readFile } from 'node:fs/promises';
import { parseKeySet, type SigningKeySet } from './key-set';

/** Where the private key set comes from: Secrets Manager in AWS (key-sources.ts), a file for the local server. */
export type SigningKeySource = () => Promise<SigningKeySet>;

/** The local server's key set, `<DATA_DIR>/signing-keys.json` (SIGNING_KEY_FILE). */
export function fileKeySource(path: string): SigningKeySource {
  return async () => {
    const set = parseKeySet(await readFile(path, 'utf8'));
    if (!set) throw new Error(`${path} holds no valid key set`);
    return set;
  };
}
