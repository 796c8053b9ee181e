import type { FieldDefinition, GenericListItem } from '../models/fieldDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { MAX_NESTING, type RenderOptions, type RenderPage } from './renderOptions.js';

/**
 * The columns of a page that show other objects: related objects in their nested forms,
 * their attributes or slugs, generic relations, references and counts. Each relation's
 * objects are fetched once for the whole page (and rendered by `render`, the Serializer's).
 */
export class RelatedColumns {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly store: ReadStore,
    private readonly render: RenderPage,
  ) {}

  /**
   * Objects named by reference (of any models), each in its nested form or showing
   * `fields`, by `<type>:<id>`; each model's objects fetched once. Kept in the response's
   * render memo: an object referenced by several columns (a port's link peer is also its
   * connected endpoint) is rendered once. Objects that are gone, or past the nesting depth,
   * are absent.
   */
  async referenced(
    refs: GenericListItem[],
    options: RenderOptions,
    depth = 0,
    fields?: string[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const memo = options.memo ?? new Map<string, unknown>();
    const inner = { ...options, memo };
    const form = fields ? fields.join(',') : 'nested';
    const memoKey = (type: string, id: number) => `reference:${form}:${depth}:${type}:${id}`;
    const idsByType = new Map<string, Set<number>>();
    for (const ref of refs) {
      const ids = idsByType.get(ref.object_type) ?? new Set<number>();
      ids.add(ref.object_id);
      idsByType.set(ref.object_type, ids);
    }
    const found = new Map<string, Record<string, unknown>>();
    for (const [type, ids] of idsByType) {
      const definition = this.registry.tryGet(type);
      if (!definition || depth >= MAX_NESTING) continue;
      const missing = [...ids].filter((id) => !memo.has(memoKey(type, id)));
      if (missing.length) {
        // Promises, so that columns rendered concurrently share the one batch.
        const batch = (async () => {
          const docs = await this.store.getMany(type, missing);
          const rendered = fields
            ? await this.render({ ...definition, brief: fields }, docs, 'brief', inner, depth + 1)
            : await this.render(definition, docs, 'nested', inner, depth + 1);
          return new Map(docs.map((d, i) => [d.id, rendered[i]]));
        })();
        for (const id of missing)
          memo.set(
            memoKey(type, id),
            batch.then((forms) => forms.get(id)),
          );
      }
      for (const id of ids) {
        const form = (await memo.get(memoKey(type, id))) as Record<string, unknown> | undefined;
        if (form) found.set(`${type}:${id}`, form);
      }
    }
    return found;
  }

  /** Computed references in their nested forms (or the field's `referenceFields`). */
  async references(
    field: FieldDefinition,
    values: unknown[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const lists = values.map((v) => (Array.isArray(v) ? (v as GenericListItem[]) : v ? [v as GenericListItem] : []));
    const nested = await this.referenced(lists.flat(), options, depth, field.referenceFields);
    const found = lists.map((items) =>
      items.flatMap((item) => nested.get(`${item.object_type}:${item.object_id}`) ?? []),
    );
    // A list that is null (no path at all) stays null rather than becoming empty.
    return field.references === 'many'
      ? found.map((items, i) => (values[i] === null ? null : items))
      : found.map((items) => items[0] ?? null);
  }

  /** Nested forms of related objects, fetched once for the whole page. */
  async related(
    target: string,
    idsPerDoc: number[][],
    options: RenderOptions,
    depth: number,
    cardinality: 'one' | 'many',
  ): Promise<unknown[]> {
    const definition = this.registry.tryGet(target);
    const all = [...new Set(idsPerDoc.flat())];
    const byId = new Map<number, Record<string, unknown>>();
    if (definition && all.length > 0 && depth < MAX_NESTING) {
      const docs = await this.store.getMany(target, all);
      const rendered = await this.render(definition, docs, 'nested', options, depth + 1);
      docs.forEach((d, i) => byId.set(d.id, rendered[i]));
    }
    return idsPerDoc.map((ids) => {
      const found = ids.map((id) => byId.get(id)).filter((x): x is Record<string, unknown> => x !== undefined);
      return cardinality === 'many' ? found : (found[0] ?? null);
    });
  }

  /** One attribute of each related object, fetched once for the whole page (null where there is none). */
  async attributes(target: string, attribute: string, ids: unknown[]): Promise<unknown[]> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
    const byId = new Map(
      (wanted.length ? await this.store.getMany(target, wanted) : []).map((d) => [d.id, d[attribute] ?? null]),
    );
    return ids.map((id) => (typeof id === 'number' ? (byId.get(id) ?? null) : null));
  }

  /** Each document's holder's parent in its nested form, with the holder nested under `as`; holders fetched once for the page. */
  async heldBy(
    spec: NonNullable<FieldDefinition['heldBy']>,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const holderDefinition = this.registry.tryGet(spec.model);
    const parentTarget = holderDefinition?.fields.find((f) => f.name === spec.parent)?.target;
    if (!holderDefinition || !parentTarget || docs.length === 0 || depth >= MAX_NESTING) return docs.map(() => null);
    const holders = await this.store.find(
      spec.model,
      { [spec.via]: { $in: docs.map((d) => d.id) } },
      { sort: { id: 1 } },
    );
    const parents = await this.related(
      parentTarget,
      holders.map((h) => toIds(h[spec.parent])),
      options,
      depth,
      'one',
    );
    const nestedHolders = await this.render(holderDefinition, holders, 'nested', options, depth + 1);
    return docs.map((d) => {
      const i = holders.findIndex((h) => h[spec.via] === d.id);
      const parent = i < 0 ? null : parents[i];
      return parent ? { ...(parent as Record<string, unknown>), [spec.as]: nestedHolders[i] } : null;
    });
  }

  /** Related objects by slug (NetBox's slug related field), ordered by name, fetched once for the whole page. */
  async slugs(target: string, idsPerDoc: number[][]): Promise<string[][]> {
    const all = [...new Set(idsPerDoc.flat())];
    const byId = new Map((all.length ? await this.store.getMany(target, all) : []).map((d) => [d.id, d]));
    const byName = (a: ReadDocument, b: ReadDocument) =>
      String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0;
    return idsPerDoc.map((ids) =>
      ids
        .map((id) => byId.get(id))
        .filter((d): d is ReadDocument => d !== undefined)
        .sort(byName)
        .map((d) => String(d.slug)),
    );
  }

  async generic(
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const out: unknown[] = docs.map(() => null);
    const byType = new Map<string, number[]>();
    docs.forEach((d, i) => {
      const type = d[field.typeField!];
      if (typeof type === 'string' && typeof d[field.idField!] === 'number') {
        const rows = byType.get(type) ?? [];
        rows.push(i);
        byType.set(type, rows);
      }
    });
    for (const [type, rows] of byType) {
      const values = await this.related(
        type,
        rows.map((i) => [docs[i][field.idField!] as number]),
        options,
        depth,
        'one',
      );
      rows.forEach((row, j) => (out[row] = values[j]));
    }
    return out;
  }

  /** Each item as {object_type, object_id, object}: the objects fetched once per model for the whole page. */
  async genericList(
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const lists = docs.map((d) => (Array.isArray(d[field.name]) ? (d[field.name] as GenericListItem[]) : []));
    const nested = await this.referenced(lists.flat(), options, depth);
    return lists.map((items) =>
      items.map((item) => ({
        object_type: item.object_type,
        object_id: item.object_id,
        object: nested.get(`${item.object_type}:${item.object_id}`) ?? null,
      })),
    );
  }

  async counts(field: FieldDefinition, docs: ReadDocument[]): Promise<unknown[]> {
    const spec = field.count!;
    if (!this.registry.tryGet(spec.model)) return docs.map(() => 0);
    if (spec.where) {
      // One query for the page: the matching objects are few (a page's addresses), the count queries would be one per row.
      const matching = await this.store.find(spec.model, { ...spec.where, [spec.via]: { $in: docs.map((d) => d.id) } });
      const counted = new Map<unknown, number>();
      for (const m of matching) counted.set(m[spec.via], (counted.get(m[spec.via]) ?? 0) + 1);
      return docs.map((d) => counted.get(d.id) ?? 0);
    }
    const counts = await this.store.countBy(
      spec.model,
      spec.via,
      docs.map((d) => d.id),
    );
    return docs.map((d) => counts.get(d.id) ?? 0);
  }
}

/** The ids a reference column holds: one, a list, or none. */
export function toIds(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number');
  return [];
}
