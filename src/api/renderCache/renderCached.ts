import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ReadDocument, ReadStore } from '../../projections/ReadStore.js';
import { jsonText } from '../face/respond.js';
import type { RenderOptions, Representation } from '../renderOptions.js';
import type { Serializer } from '../Serializer.js';
import { recordReads } from './recordReads.js';
import type { RenderCache } from './RenderCache.js';

export interface CachedRendering {
  cache: RenderCache;
  serializer: Serializer;
  store: ReadStore;
}

/**
 * The objects rendered as JSON (UTF-8), from the render cache where it holds them; the
 * others rendered together in one batch, which records the collections it reads, and
 * kept. Only plain renderings are cached: the whole object (or its brief form) on the
 * live read models, without ?fields=/?exclude= or a secret shown once.
 */
export async function renderCached(
  { cache, serializer, store }: CachedRendering,
  definition: ModelDefinition,
  docs: ReadDocument[],
  representation: Representation,
  options: RenderOptions,
): Promise<Buffer[]> {
  const prefix = renderKeyPrefix(definition, representation, options);
  const texts = docs.map((doc) => cache.get(prefix + doc.id, doc._pos));
  const missing = docs.filter((_, i) => texts[i] === undefined);
  if (missing.length > 0) {
    const renderedAt = cache.position;
    const read = new Set<string>();
    const rows = await serializer.using(recordReads(store, read)).render(definition, missing, representation, options);
    // Projected columns are patched into neighbours without a new version: such a model's
    // renderings depend on every change of its own collection.
    if (definition.projectedColumns) read.add(definition.key);
    const reads = [...read];
    let next = 0;
    docs.forEach((doc, i) => {
      if (texts[i] !== undefined) return;
      const text = Buffer.from(jsonText(rows[next++], null));
      cache.set(prefix + doc.id, doc._pos, renderedAt, reads, text);
      texts[i] = text;
    });
  }
  return texts as Buffer[];
}

/** The render cache's key of an object's rendering is this and its id. */
export function renderKeyPrefix(
  definition: ModelDefinition,
  representation: Representation,
  options: RenderOptions,
): string {
  return `${definition.key}\u0000${representation}\u0000${options.baseUrl}\u0000`;
}

/** Whether a rendering with these options is the plain one the cache keeps. */
export function cacheableRendering(options: RenderOptions): boolean {
  return !options.only && !options.exclude && !options.revealed && !options.omitAnnotated;
}
