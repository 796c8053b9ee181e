import { randomBytes } from 'node:crypto';

/** An image file already stored under the media directory, as an upload request describes it. */
export interface StoredImage {
  /** The file's name in the media directory: its SHA-256 digest and an extension. */
  file: string;
  digest: string;
  size: number;
  /** The name the client gave the file. */
  originalName: string;
  height: number;
  width: number;
}

/**
 * Uploads handed from the HTTP side to the write side within one request. A JSON body
 * cannot carry a file, so the write names an upload by a random token only the request
 * that stored the file knows: a client cannot point an attachment at a file by guessing.
 */
const pending = new Map<string, StoredImage>();

export function offerImage(image: StoredImage): string {
  const token = randomBytes(24).toString('base64url');
  pending.set(token, image);
  return token;
}

export function takeOfferedImage(token: unknown): StoredImage | undefined {
  return typeof token === 'string' ? pending.get(token) : undefined;
}

/** Whether a request still holds an upload of this file (stored, its write not yet answered). */
export function isOffered(file: string): boolean {
  for (const image of pending.values()) if (image.file === file) return true;
  return false;
}

/** Once the request is answered its token is worthless. */
export function withdrawImage(token: string): void {
  pending.delete(token);
}
