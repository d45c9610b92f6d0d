/**
 * A software WebAuthn authenticator for handler tests (behaviour PASSKEY-*): an ES256 key pair, and
 * registration and assertion responses in the JSON shape of PublicKeyCredential.toJSON(),
 * built byte by byte after WebAuthn L3 6.1 (authenticator data), 6.5.4 (attestation object,
 * fmt "none") and 7.2 (the signature over authenticatorData || SHA-256(clientDataJSON)).
 * Each field can be bent (origin, RP ID, flags, counter) to produce the refusals.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | { readonly [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const out = Buffer.alloc(3);
  out[0] = (major << 5) | 25;
  out.writeUInt16BE(length, 1);
  return out;
}

/** Just the CBOR (RFC 8949) the attestation object and a COSE key need. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface Ceremony {
  readonly challenge: string;
  readonly origin?: string;
  readonly rpId?: string;
  /** The user-verified flag (UV, bit 2); default set. */
  readonly userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Buffer;
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // RFC 9053 7.1: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private authenticatorData(ceremony: Ceremony, attested: boolean, counter: number): Buffer {
    // Flags: UP (0x01), UV (0x04), AT (0x40) when credential data follows.
    const flags = 0x01 | (ceremony.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const parts: Uint8Array[] = [sha256(ceremony.rpId ?? this.rpId), Buffer.from([flags]), counterBytes];
    if (attested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), idLength, this.credentialId, this.cosePublicKey);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, ceremony: Ceremony): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: ceremony.challenge, origin: ceremony.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(), as toJSON() shows it. */
  register(ceremony: Ceremony) {
    const authData = this.authenticatorData(ceremony, true, this.counter);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', ceremony)),
        attestationObject: b64u(cbor({ fmt: 'none', attStmt: new Map(), authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(); the counter goes up by one unless `counter` says otherwise. */
  assert(ceremony: Ceremony & { readonly counter?: number; readonly userHandle?: string }) {
    this.counter = ceremony.counter ?? this.counter + 1;
    const authData = this.authenticatorData(ceremony, false, this.counter);
    const clientDataJSON = this.clientData('webauthn.get', ceremony);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(ceremony.userHandle ? { userHandle: ceremony.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
