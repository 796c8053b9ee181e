import type { Context } from 'koa';
import { PreconditionFailedError } from '../commands/errors.js';
import type { LookupView } from '../models/types.js';

/** An object's version for HTTP caching and optimistic concurrency: the log position that last wrote it. */
export function etagOf(position: unknown): string {
  return `"${String(position)}"`;
}

/** The versions an If-Match header accepts ('*' for any), or null when the header is absent. */
export function ifMatchVersions(ctx: Context): Set<string> | null {
  const header = ctx.get('If-Match');
  if (!header) return null;
  return new Set(header.split(',').map((v) => v.trim().replace(/^W\//, '')));
}

/**
 * Refuse the write (412) unless the object is still at a version the client named.
 * Called inside the write decision, so no other write can slip in between.
 */
export async function assertVersion(view: LookupView, model: string, id: number, versions: Set<string> | null): Promise<void> {
  if (!versions) return;
  const current = (await view.get(model, id)) as { _pos?: number } | null;
  if (!current) return; // the write itself answers 404
  if (versions.has('*')) return;
  if (!versions.has(etagOf(current._pos))) throw new PreconditionFailedError();
}
