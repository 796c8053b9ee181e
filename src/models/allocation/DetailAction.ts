/**
 * Helpers of the allocators. The declarations (DetailAction, Allocator, ...) live in
 * ../types.ts with the rest of a model definition. Sub-resources of an object's detail URL that hand out its free space, as NetBox's
 * `available-ips`, `available-prefixes` and `available-vlans` do. A model declares them
 * in its definition; the routes, permissions and the write path are generic. An
 * allocator knows the model's rules: what is free, and what a request receives.
 */
export type {
  Allocation,
  AllocationEnvironment,
  Allocator,
  AllocatorShape,
  AvailableEntry,
  DetailAction,
  ListingValue,
  NestedReference,
} from '../types.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
