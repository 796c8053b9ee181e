import type { Context } from 'koa';

import type { ExpectedVersions, Precondition } from '../commands/preconditions.js';

/**
 * An object's version for HTTP caching and optimistic concurrency: the log position
 * that last wrote it. A position wrote exactly one object, so an entity tag names
 * its object too: a list of them can guard a bulk write without saying which is whose.
 */
export function etagOf(position: number): string {
  return `"${position}"`;
}

/**
 * The versions a comma-separated list of entity tags accepts ('any' for `*`). Weak
 * tags compare as strong ones; the quotes may be left out (awkward inside JSON);
 * tags that are not ours match no version.
 */
export function versionsOf(tags: string): ExpectedVersions {
  const versions = new Set<number>();
  for (const raw of tags.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return 'any';
    const match = /^(?:"(\d+)"|(\d+))$/.exec(tag);
    if (match) versions.add(Number(match[1] ?? match[2]));
  }
  return versions;
}

/** The If-Match header as a precondition on each of `ids` (none when the header is absent). */
export function ifMatchPreconditions(ctx: Context, ids: number[]): Precondition[] {
  const header = ctx.get('If-Match');
  if (!header) return [];
  const versions = versionsOf(header);
  return ids.map((id) => ({ id, versions }));
}

/** The key of a bulk item that names the version of its object the client expects (never a stored field). */
export const ITEM_ETAG = 'etag';

/** Why a bulk item's `etag` is unusable (it must be one entity tag, as the ETag header gives it), or null. */
export function itemEtagError(item: Record<string, unknown>): string | null {
  if (!Object.hasOwn(item, ITEM_ETAG)) return null;
  const tag = item[ITEM_ETAG];
  if (typeof tag === 'string' && tag.trim() !== '' && !tag.includes(',')) return null;
  return "Expected the object's ETag as a string, as the ETag response header gives it.";
}

/** The versions a bulk item's own `etag` accepts, or undefined when it names none. */
export function itemVersions(item: Record<string, unknown>): ExpectedVersions | undefined {
  const tag = item[ITEM_ETAG];
  return typeof tag === 'string' ? versionsOf(tag) : undefined;
}
