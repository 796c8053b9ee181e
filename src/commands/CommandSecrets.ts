/**
 * What the write side needs to keep secrets out of events: a slow hash for passwords,
 * a keyed digest (and, where retrieval is allowed, an encryption) for token keys.
 * Declared here, on the write side, and implemented by auth's SecretKeeper, so that
 * commands do not depend on the auth layer above them.
 */
export interface CommandSecrets {
  /** ALLOW_TOKEN_RETRIEVAL: whether a reversible copy of a token key may be kept. */
  readonly allowTokenRetrieval: boolean;
  /** A new random token key (40 hex characters). */
  generateTokenKey(): string;
  tokenDigest(key: string): string;
  encryptTokenKey(key: string): string;
  hashPassword(password: string): Promise<string>;
  /** A secret the service must read back itself (a webhook's signing key), encrypted whatever ALLOW_TOKEN_RETRIEVAL says. */
  sealSecret(value: string): string;
}
