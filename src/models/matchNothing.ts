/**
 * The query document that matches no object, the same in both read stores (an empty
 * `$in` on id): filters about things netledger does not model, filter values that
 * cannot match, permissions that cannot be evaluated. Frozen, as every caller shares it.
 */
export const MATCH_NOTHING: Record<string, unknown> = Object.freeze({ id: Object.freeze({ $in: Object.freeze([]) }) });
