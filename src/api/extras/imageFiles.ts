import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

import { withMediaFileLock } from './mediaFileLocks.js';

const DEFAULT_MEDIA = 'image-attachments';

/** The directory, under the data directory, holding attachments' files (or another media directory's). */
export function imageDirectory(dataDir: string, media = DEFAULT_MEDIA): string {
  return path.join(dataDir, 'media', media);
}

/**
 * An uploaded file is only ever an image, but its bytes are a client's: should a browser
 * open one as a document (a polyglot file), it runs and fetches nothing.
 */
export const UPLOADED_FILE_POLICY = "sandbox; default-src 'none'";

/** A stored file's name: the digest of its bytes and its format's extension. */
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpeg|gif)$/;

export function isStoredImageName(name: string): boolean {
  return STORED_NAME.test(name);
}

/**
 * Stores an image's bytes under their SHA-256 digest, before the write that names them
 * is appended: the write never names a file that is not there. Written to a temporary
 * file, flushed and renamed, so a crash leaves the whole file or none. The same bytes
 * uploaded twice are one file. `claim` runs while no deletion of the file can start
 * (see mediaFileLocks.ts): what it registers keeps the file until it lets go.
 */
export async function storeImageFile<T>(
  dataDir: string,
  bytes: Buffer,
  extension: string,
  media: string | undefined,
  claim: (stored: { file: string; digest: string }) => T,
): Promise<T> {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const file = `${digest}.${extension}`;
  return withMediaFileLock(media ?? DEFAULT_MEDIA, file, async () => {
    await writeImageFile(imageDirectory(dataDir, media), file, digest, bytes);
    return claim({ file, digest });
  });
}

/**
 * Deletes a stored file unless `named` says something still names it, asked while no
 * upload can claim the file (see mediaFileLocks.ts). Only a stored file's name is
 * accepted: a value read back from the log never leads outside the directory.
 */
export async function removeImageFile(
  dataDir: string,
  media: string,
  file: string,
  named: () => Promise<boolean>,
): Promise<boolean> {
  if (!isStoredImageName(file)) return false;
  return withMediaFileLock(media, file, async () => {
    if (await named()) return false;
    try {
      await unlink(path.join(imageDirectory(dataDir, media), file));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  });
}

async function writeImageFile(directory: string, file: string, digest: string, bytes: Buffer): Promise<void> {
  const target = path.join(directory, file);
  if (await exists(target)) return;
  await mkdir(directory, { recursive: true });
  const temporary = path.join(directory, `.${digest}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temporary, target);
  const dir = await open(directory, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}
