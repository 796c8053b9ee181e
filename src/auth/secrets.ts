import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  scrypt,
  scryptSync,
  timingSafeEqual,
} from 'node:crypto';

import type { CommandSecrets } from '../commands/CommandSecrets.js';

/**
 * Secrets never travel in clear through events, logs or change records: passwords
 * become slow salted hashes, token keys a keyed digest (for constant-time lookup)
 * plus, only where retrieval is allowed, an authenticated encryption of the key.
 */
export class SecretKeeper implements CommandSecrets {
  private readonly digestKey: Buffer;
  private readonly cipherKey: Buffer;

  constructor(
    secretKey: string,
    readonly allowTokenRetrieval: boolean,
  ) {
    this.digestKey = createHash('sha256').update(`netledger token digest\0${secretKey}`).digest();
    this.cipherKey = createHash('sha256').update(`netledger token cipher\0${secretKey}`).digest();
  }

  static generateTokenKey(): string {
    return randomBytes(20).toString('hex');
  }

  generateTokenKey(): string {
    return SecretKeeper.generateTokenKey();
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  tokenDigest(key: string): string {
    return createHmac('sha256', this.digestKey).update(key).digest('hex');
  }

  encryptTokenKey(key: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.cipherKey, iv);
    const body = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('$');
  }

  sealSecret(value: string): string {
    return this.encryptTokenKey(value);
  }

  /** The clear text of a sealed secret; null when it was sealed with another SECRET_KEY or damaged. */
  unsealSecret(sealed: string): string | null {
    return this.decryptTokenKey(sealed);
  }

  decryptTokenKey(sealed: string): string | null {
    try {
      const [version, iv, tag, body] = sealed.split('$');
      if (version !== 'v1') return null;
      const decipher = createDecipheriv('aes-256-gcm', this.cipherKey, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** A slow salted hash, computed on libuv's thread pool so the event loop keeps serving. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export function verifyPassword(password: string, stored: unknown): boolean {
  if (typeof stored !== 'string') return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * verifyPassword off the event loop (scrypt runs on libuv's thread pool), so that
 * login attempts cannot stall other requests. An unknown user is checked against a
 * throwaway hash, so the answer takes as long whether or not the user exists.
 */
export async function verifyPasswordAsync(password: string, stored: unknown): Promise<boolean> {
  const target = typeof stored === 'string' && stored.startsWith('scrypt$') ? stored : decoyHash();
  const [, n, r, p, salt, hash] = target.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * Number(n) * Number(r) + 1024 * 1024 };
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64'), expected.length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  ).catch(() => null);
  return target === stored && actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: string | null = null;

/** A hash of a random password, made once, to check unknown users against. */
function decoyHash(): string {
  if (decoy) return decoy;
  const salt = randomBytes(16);
  const hash = scryptSync(randomBytes(16), salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return (decoy = ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$'));
}
