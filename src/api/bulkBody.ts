/** The body of a bulk update or delete: a list of objects naming their ids (and, optionally, their versions). */
import type { Context } from 'koa';

import type { ExpectedVersions, Precondition } from '../commands/preconditions.js';
import type { UpdateItem } from '../commands/updateObjects.js';
import type { FieldErrors } from '../errors/fieldErrors.js';
import { ValidationError } from '../errors/requestErrors.js';
import { ifMatchPreconditions, ITEM_ETAG, itemEtagError, itemVersions } from './conditionalWrite.js';

/** An element of a bulk body: the object's id, its input, and the version its `etag` names (if any). */
export interface BulkItem extends UpdateItem {
  versions?: ExpectedVersions;
}

/**
 * Bulk bodies are arrays of objects, each with an integer id and optionally the
 * object's `etag`, which is taken out of the input (it is a precondition, not a field).
 */
export function bulkItems(body: unknown): BulkItem[] {
  if (!Array.isArray(body)) {
    const type =
      body === null ? 'NoneType' : typeof body === 'object' ? 'dict' : typeof body === 'string' ? 'str' : typeof body;
    throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
  }
  const errors = body.map((item): FieldErrors => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
    const id = (item as Record<string, unknown>).id;
    if (id === undefined || id === null) return { id: ['This field is required.'] };
    if (!Number.isSafeInteger(Number(id)) || !/^\d+$/.test(String(id))) return { id: ['A valid integer is required.'] };
    const etagError = itemEtagError(item as Record<string, unknown>);
    return etagError ? { [ITEM_ETAG]: [etagError] } : {};
  });
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(errors);
  return body.map((item: Record<string, unknown>) => {
    const { [ITEM_ETAG]: _etag, ...input } = item;
    return { id: Number(item.id), input, versions: itemVersions(item) };
  });
}

/** What the request asks of each object's version: the If-Match header's list and each item's own `etag`. */
export function bulkPreconditions(ctx: Context, items: BulkItem[]): Precondition[] {
  const own = items.flatMap(({ id, versions }) => (versions ? [{ id, versions }] : []));
  return [
    ...ifMatchPreconditions(
      ctx,
      items.map((i) => i.id),
    ),
    ...own,
  ];
}
