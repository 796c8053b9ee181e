import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** The directory, under the data directory, holding attachments' files (or another media directory's). */
export function imageDirectory(dataDir: string, media = 'image-attachments'): string {
  return path.join(dataDir, 'media', media);
}

/** A stored file's name: the digest of its bytes and its format's extension. */
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpeg|gif)$/;

export function isStoredImageName(name: string): boolean {
  return STORED_NAME.test(name);
}

/**
 * Stores an image's bytes under their SHA-256 digest, before the write that names them
 * is appended: the write never names a file that is not there. Written to a temporary
 * file, flushed and renamed, so a crash leaves the whole file or none. The same bytes
 * uploaded twice are one file.
 */
export async function storeImageFile(dataDir: string, bytes: Buffer, extension: string, media?: string): Promise<{ file: string; digest: string }> {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const file = `${digest}.${extension}`;
  const directory = imageDirectory(dataDir, media);
  const target = path.join(directory, file);
  if (await exists(target)) return { file, digest };
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
  return { file, digest };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}
