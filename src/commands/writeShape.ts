import type { Precondition } from './preconditions.js';

/**
 * How a write was asked for. `bulk`: the request's body was a list, so its errors are answered
 * item by item (a list of `{field: [messages]}`; an unknown id is a failed item, not a 404), as
 * NetBox's bulk views answer them.
 */
export interface WriteShape {
  bulk: boolean;
}

/** A write of objects that exist: its shape, and the versions the request holds them to (If-Match, `etag`). */
export interface ExistingObjectsWrite extends WriteShape {
  preconditions?: readonly Precondition[];
}
