// The server side of SASL SCRAM-SHA512 (RFC 5802 with SHA-512), which the Couchbase SDK picks on a
// plain-text KV connection. Two steps: SASL_AUTH carries client-first and gets server-first back,
// SASL_STEP carries client-final and gets the server signature back.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export const scramMechanism = 'SCRAM-SHA512';
const iterations = 4096;

export interface ScramSecrets {
  salt: Buffer;
  saltedPasswords: Map<string, Buffer>;
}

export function newScramSecrets(): ScramSecrets {
  return { salt: randomBytes(16), saltedPasswords: new Map() };
}

export type PasswordLookup = (username: string) => string | undefined;

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha512', key).update(text).digest();
}

function parseAttributes(message: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const part of message.split(',')) {
    const equals = part.indexOf('=');
    if (equals === 1) attributes.set(part[0], part.slice(2));
  }
  return attributes;
}

/** One authentication conversation on one connection. */
export class ScramConversation {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private username = '';

  /** `shared` lets a node reuse one salt and its PBKDF2 results across connections (4096 rounds each). */
  constructor(
    private readonly lookup: PasswordLookup,
    private readonly shared: ScramSecrets = newScramSecrets(),
  ) {}

  /** Handles client-first; returns server-first, or undefined for a malformed message. */
  start(clientFirst: string): string | undefined {
    // gs2 header "n,," (no channel binding) then the bare message "n=user,r=nonce".
    const match = /^[nyp][^,]*,[^,]*,(.*)$/.exec(clientFirst);
    if (!match) return undefined;
    this.clientFirstBare = match[1];
    const attributes = parseAttributes(this.clientFirstBare);
    const user = attributes.get('n');
    const clientNonce = attributes.get('r');
    if (user === undefined || clientNonce === undefined) return undefined;
    this.username = user.replace(/=2C/g, ',').replace(/=3D/g, '=');
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.shared.salt.toString('base64')},i=${iterations}`;
    return this.serverFirst;
  }

  /** Handles client-final; returns the server-final message, or undefined if the proof is wrong. */
  finish(clientFinal: string): { username: string; serverFinal: string } | undefined {
    const attributes = parseAttributes(clientFinal);
    const proof = attributes.get('p');
    if (proof === undefined || attributes.get('r') !== this.nonce) return undefined;
    const password = this.lookup(this.username);
    if (password === undefined) return undefined;
    const withoutProof = clientFinal.slice(0, clientFinal.lastIndexOf(',p='));
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const salted = this.saltedPassword(password);
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = createHash('sha512').update(clientKey).digest();
    const clientSignature = hmac(storedKey, authMessage);
    const proofBytes = Buffer.from(proof, 'base64');
    if (proofBytes.length !== clientSignature.length) return undefined;
    const recoveredKey = Buffer.alloc(proofBytes.length);
    for (let i = 0; i < proofBytes.length; i++) recoveredKey[i] = proofBytes[i] ^ clientSignature[i];
    const recoveredStored = createHash('sha512').update(recoveredKey).digest();
    if (!timingSafeEqual(recoveredStored, storedKey)) return undefined;
    const serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    return { username: this.username, serverFinal: `v=${serverSignature.toString('base64')}` };
  }

  private saltedPassword(password: string): Buffer {
    let salted = this.shared.saltedPasswords.get(password);
    if (!salted) {
      salted = pbkdf2Sync(password, this.shared.salt, iterations, 64, 'sha512');
      if (this.shared.saltedPasswords.size > 64) this.shared.saltedPasswords.clear();
      this.shared.saltedPasswords.set(password, salted);
    }
    return salted;
  }
}
