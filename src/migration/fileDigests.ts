/**
 * `--verify` compares a file by its bytes, not by its URL (which names another host, and
 * in NetBox a path where netledger has a digest): each field naming a file is replaced
 * by the SHA-256 digest of the bytes it serves, read a few at a time.
 */
import { createHash } from 'node:crypto';

import type { ModelDefinition } from '../models/modelDefinition.js';
import { carriedFileFields } from './carryFiles.js';
import { type MediaReader, MediaUnreadableError } from './mediaReaders.js';

/** Verification only hashes a file: it reads larger ones than an import accepts, to say they differ. */
const VERIFY_MAX_BYTES = 256 * 1024 * 1024;
const READ_AT_ONCE = 4;

/** The objects with each file field's URL replaced by `sha256:<digest>` (or `unreadable: <reason>`). */
export async function withFileDigests(
  model: ModelDefinition,
  objects: ReadonlyArray<Record<string, unknown>>,
  reader: MediaReader,
): Promise<Array<Record<string, unknown>>> {
  const fields = carriedFileFields(model);
  if (fields.length === 0) return [...objects];
  const copies = objects.map((o) => ({ ...o }));
  const jobs: Array<{ object: Record<string, unknown>; name: string; url: string }> = [];
  for (const object of copies)
    for (const { shownIn } of fields) {
      const url = object[shownIn];
      if (typeof url === 'string' && url !== '') jobs.push({ object, name: shownIn, url });
    }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { object, name, url } = jobs[next++];
      try {
        const bytes = await reader.read(url, VERIFY_MAX_BYTES);
        object[name] = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      } catch (error) {
        if (!(error instanceof MediaUnreadableError)) throw error;
        object[name] = `unreadable: ${error.message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_AT_ONCE, jobs.length) }, worker));
  return copies;
}
