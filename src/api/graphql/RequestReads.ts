/**
 * What one GraphQL request reads, batched and permission-filtered. Every object a query
 * reaches, at any depth, comes through here and is narrowed by the caller's view scope of
 * its model (src/api/permissions.ts, as the REST list and detail views narrow): one the
 * caller may not see is absent (null, or left out of a list). Lookups asked for while a
 * level of the result is resolved are gathered and answered together after it (one store
 * query per model and relation per level, never one per object).
 */
import { GraphQLError } from 'graphql';
import type { Context } from 'koa';

import type { Config } from '../../config.js';
import { PermissionDeniedError } from '../../errors/requestErrors.js';
import { customFieldsOf } from '../../models/customFields/customFieldsOf.js';
import type { FieldDefinition, GenericListItem, RenderMemo } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { lookupView } from '../../projections/lookupView.js';
import type { FindOptions, Query, ReadDocument, ReadStore } from '../../projections/ReadStore.js';
import { viewScope } from '../permissions.js';
import { andQueries } from '../query/clauses.js';
import { compileSort } from '../query/sort.js';
import type { Serializer } from '../Serializer.js';
import { Batch } from './Batch.js';

/** A generic relation's type field and the model its value names (an IP address's assigned object). */
export interface GenericParent {
  typeField: string;
  parentModel: string;
}

/** The objects of one model waiting to be rendered, and the fields asked of them. */
interface RenderBatch {
  docs: Map<number, ReadDocument>;
  fields: Set<string>;
  batch: Batch<number, Record<string, unknown> | null>;
}

/** The objects of one model whose computed field is asked for at one level. */
interface PageBatch<V> {
  docs: Map<number, ReadDocument>;
  batch: Batch<number, V>;
}

export class RequestReads {
  private readonly scopes = new Map<string, Promise<Query | null>>();
  private readonly byId = new Map<string, Batch<number, ReadDocument | null>>();
  private readonly children = new Map<string, Batch<number, ReadDocument[]>>();
  private readonly rendered = new Map<string, RenderBatch>();
  private readonly references = new Map<string, PageBatch<GenericListItem[] | null>>();
  private readonly customFieldNames = new Map<string, Promise<Array<{ name: string }>>>();
  /** Objects rendered once per request, as the REST renderer keeps them per response. */
  private readonly memo: RenderMemo = new Map();
  /** The model of each object handed out, for the union types (a generic relation's object). */
  private readonly models = new WeakMap<object, string>();
  /** Objects read so far: the cost bound's estimate checked against what the data holds. */
  private objectsRead = 0;

  constructor(
    readonly ctx: Context,
    readonly config: Config,
    readonly registry: ModelRegistry,
    readonly store: ReadStore,
    private readonly serializer: Serializer,
    /** The most objects one request may read (GRAPHQL_MAX_COST); past it, the field being read is an error. */
    private readonly maxObjects = Number.POSITIVE_INFINITY,
  ) {}

  /** The caller's view scope of a model, or null when they may view none of it. */
  scope(definition: ModelDefinition): Promise<Query | null> {
    let scope = this.scopes.get(definition.key);
    if (!scope) {
      scope = viewScope(this.ctx, this.config, definition).catch((error) => {
        if (error instanceof PermissionDeniedError) return null;
        throw error;
      });
      this.scopes.set(definition.key, scope);
    }
    return scope;
  }

  /** The scope, or the REST refusal (403's message) for a top-level query of a model the caller may not view. */
  async requireScope(definition: ModelDefinition): Promise<Query> {
    return viewScope(this.ctx, this.config, definition);
  }

  modelOf(doc: object): string | undefined {
    return this.models.get(doc);
  }

  private tag(key: string, docs: ReadDocument[]): ReadDocument[] {
    for (const doc of docs) this.models.set(doc, key);
    return docs;
  }

  async find(definition: ModelDefinition, query: Query, options: FindOptions = {}): Promise<ReadDocument[]> {
    return this.counted(definition.key, await this.store.find(definition.key, query, options));
  }

  /**
   * Tags objects read with their model, and counts them: the estimate checked before the
   * query ran assumes a nested list's length, the data may hold longer ones (a site with
   * 50,000 devices); past GRAPHQL_MAX_COST objects the field being read is an error.
   */
  counted(key: string, docs: ReadDocument[]): ReadDocument[] {
    this.objectsRead += docs.length;
    if (this.objectsRead > this.maxObjects) {
      throw new GraphQLError(
        `Query read more than ${this.maxObjects} objects (GRAPHQL_MAX_COST); ask for fewer with limit or less nesting.`,
      );
    }
    return this.tag(key, docs);
  }

  /** The object of `model` with this id, if it exists and the caller may view it. */
  object(model: string, id: unknown): Promise<ReadDocument | null> {
    const definition = this.registry.tryGet(model);
    if (!definition || typeof id !== 'number') return Promise.resolve(null);
    let batch = this.byId.get(model);
    if (!batch) {
      batch = new Batch(async (ids) => {
        const scope = await this.scope(definition);
        if (scope === null) return new Map();
        const docs = await this.find(definition, andQueries([scope, { id: { $in: ids } }]));
        return new Map(docs.map((d) => [d.id, d]));
      }, null);
      this.byId.set(model, batch);
    }
    return batch.load(id);
  }

  /** The objects with these ids the caller may view, in the order given. */
  async objects(model: string, ids: unknown): Promise<ReadDocument[]> {
    const list = Array.isArray(ids) ? ids : [];
    const found = await Promise.all(list.map((id) => this.object(model, id)));
    return found.filter((d): d is ReadDocument => d !== null);
  }

  /**
   * The `model` objects whose `via` field names `parentId` (a site's devices; one of those a
   * many-to-many field holds: an IP address's services), or, for a
   * generic relation, whose `typeField` is `parentModel` and `via` is `parentId` (an
   * interface's IP addresses); in the model's default order.
   */
  related(model: string, via: string, parentId: number, generic?: GenericParent): Promise<ReadDocument[]> {
    const definition = this.registry.tryGet(model);
    if (!definition) return Promise.resolve([]);
    const key = `${model}:${via}:${generic ? `${generic.typeField}=${generic.parentModel}` : ''}`;
    let batch = this.children.get(key);
    if (!batch) {
      batch = new Batch(async (parents) => {
        const scope = await this.scope(definition);
        if (scope === null) return new Map();
        const clause: Query = { [via]: { $in: parents } };
        if (generic) clause[generic.typeField] = generic.parentModel;
        const docs = await this.find(definition, andQueries([scope, clause]), { sort: compileSort(definition, null) });
        const asked = new Set(parents);
        const grouped = new Map<number, ReadDocument[]>();
        for (const doc of docs) {
          // a many-to-many field holds several parents (a service's IP addresses)
          for (const parent of [doc[via]].flat() as number[]) {
            if (!asked.has(parent)) continue;
            const list = grouped.get(parent) ?? [];
            list.push(doc);
            grouped.set(parent, list);
          }
        }
        return grouped;
      }, []);
      this.children.set(key, batch);
    }
    return batch.load(parentId);
  }

  /**
   * One field of an object as the REST complete form renders it (display, URL, counts,
   * computed values, custom fields): the objects of a model asked for at one level are
   * rendered together, showing the fields asked of any of them.
   */
  async renderedField(definition: ModelDefinition, doc: ReadDocument, field: string): Promise<unknown> {
    let entry = this.rendered.get(definition.key);
    if (!entry) {
      const docs = new Map<number, ReadDocument>();
      const fields = new Set<string>();
      const batch = new Batch<number, Record<string, unknown> | null>(async (ids) => {
        const page = ids.map((id) => docs.get(id)!);
        const only = new Set(fields);
        docs.clear();
        fields.clear();
        const options = { baseUrl: this.ctx.state.baseUrl, only };
        const rendered = await this.serializer.render(definition, page, 'complete', options);
        return new Map(page.map((d, i) => [d.id, rendered[i]]));
      }, null);
      entry = { docs, fields, batch };
      this.rendered.set(definition.key, entry);
    }
    entry.docs.set(doc.id, doc);
    entry.fields.add(field);
    const row = await entry.batch.load(doc.id);
    return row?.[field] ?? null;
  }

  /**
   * The objects a computed reference field names (a port's link peers, a circuit's
   * termination on side A), as `{object_type, object_id}` items, or null where the REST form
   * is null (no path at all): computed for the objects of a level at once, as a page is.
   * The objects themselves are read through `object`, so each is permission-filtered.
   */
  referenceItems(
    definition: ModelDefinition,
    field: FieldDefinition,
    doc: ReadDocument,
  ): Promise<GenericListItem[] | null> {
    const key = `${definition.key}.${field.name}`;
    let entry = this.references.get(key);
    if (!entry) {
      const docs = new Map<number, ReadDocument>();
      const batch = new Batch<number, GenericListItem[] | null>(async (ids) => {
        const page = ids.map((id) => docs.get(id)!);
        docs.clear();
        const options = { baseUrl: this.ctx.state.baseUrl, memo: this.memo };
        const values = await this.serializer.computed(definition, field, page, options);
        const items = (value: unknown) =>
          value === null || value === undefined
            ? field.references === 'many'
              ? null
              : []
            : ((Array.isArray(value) ? value : [value]) as GenericListItem[]);
        return new Map(page.map((d, i) => [d.id, items(values[i])]));
      }, []);
      entry = { docs, batch };
      this.references.set(key, entry);
    }
    entry.docs.set(doc.id, doc);
    return entry.batch.load(doc.id);
  }

  /**
   * The custom field data of an object as NetBox's GraphQL shows it (`custom_field_data`):
   * every custom field defined for its model, null when unset, and an object field as the
   * ids it stores, not the nested objects REST shows (which would show objects the caller
   * may not view).
   */
  async customFieldData(
    definition: ModelDefinition,
    field: FieldDefinition,
    doc: ReadDocument,
  ): Promise<Record<string, unknown>> {
    let names = this.customFieldNames.get(definition.key);
    if (!names) {
      names = customFieldsOf(lookupView(this.store), definition.key).then((defined) =>
        defined.map((custom) => ({ name: String(custom.name) })),
      );
      this.customFieldNames.set(definition.key, names);
    }
    const stored = (doc[field.name] ?? {}) as Record<string, unknown>;
    return Object.fromEntries((await names).map(({ name }) => [name, stored[name] ?? null]));
  }
}
