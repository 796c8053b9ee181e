import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ContentTypes } from '../models/contentTypes.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import type { AuditLog } from './AuditLog.js';

const ACTION_LABELS: Record<string, string> = { create: 'Created', update: 'Updated', delete: 'Deleted' };
/** Never rendered, whatever a (possibly retired) model definition says. */
const ALWAYS_HIDDEN = new Set(['password', 'key_digest', 'key_cipher', 'key_last6']);

/** The stored keys of a model that an object change must not show: internal, write-only and secret fields. */
export function hiddenSnapshotKeys(definition: ModelDefinition | undefined): Set<string> {
  const hidden = new Set(ALWAYS_HIDDEN);
  for (const field of definition?.fields ?? []) {
    if (field.internal || field.writeOnly || field.secret) hidden.add(field.name);
  }
  return hidden;
}

/** An event snapshot without hidden keys (and without private `_x` keys). */
export function publicSnapshot(
  definition: ModelDefinition | undefined,
  snapshot: Record<string, unknown> | null,
): Record<string, unknown> | null {
  if (snapshot === null) return null;
  const hidden = hiddenSnapshotKeys(definition);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    if (hidden.has(key) || key.startsWith('_')) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Renders read documents in their nested form (the API's serializer): given by the
 * caller, so that the audit side does not depend on the HTTP layer above it.
 */
export interface NestedRenderer {
  render(
    definition: ModelDefinition,
    docs: ReadDocument[],
    representation: 'nested',
    options: { baseUrl: string },
  ): Promise<Record<string, unknown>[]>;
}

export interface RenderContext {
  baseUrl: string;
  /** Where changed/related objects and users are looked up (the live read models). */
  store: ReadStore;
  serializer: NestedRenderer;
}

/**
 * Renders events as NetBox object changes: id (the log position), url, display, time,
 * user (nested, null once deleted), user_name, request_id, action {value, label},
 * changed_object_type/id, changed_object (nested, null once deleted),
 * related_object_type/id/related_object, object_repr, prechange_data and
 * postchange_data (the event snapshots without internal or secret fields; tags as the
 * sorted list of tag names at the time, as NetBox records them), plus revert_of.
 */
export class ChangeRenderer {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly contentTypes: ContentTypes,
    private readonly audit: AuditLog,
  ) {}

  async render(events: readonly ChangeEvent[], context: RenderContext): Promise<Record<string, unknown>[]> {
    if (events.length === 0) return [];
    const objects = new NestedObjects(this.registry, context);
    for (const e of events) {
      objects.want(e.objectType, e.objectId);
      if (e.related) objects.want(e.related.type, e.related.id);
      if (e.user) objects.want('auth.user', e.user.id);
    }
    const [, tagNames] = await Promise.all([objects.load(), this.tagNames(events)]);
    return events.map((e) => {
      const definition = this.registry.tryGet(e.objectType);
      const userName = e.user?.username ?? '';
      const label = ACTION_LABELS[e.action] ?? e.action;
      return {
        id: e.position,
        url: `${context.baseUrl}/api/extras/object-changes/${e.position}/`,
        display: `${this.contentTypes.display(e.objectType)} ${e.objectRepr} ${label.toLowerCase()} by ${userName}`,
        time: e.time,
        user: e.user ? objects.get('auth.user', e.user.id) : null,
        user_name: userName,
        request_id: e.requestId,
        action: { value: e.action, label },
        changed_object_type: e.objectType,
        changed_object_id: e.objectId,
        changed_object: objects.get(e.objectType, e.objectId),
        related_object_type: e.related?.type ?? null,
        related_object_id: e.related?.id ?? null,
        related_object: e.related ? objects.get(e.related.type, e.related.id) : null,
        object_repr: e.objectRepr,
        prechange_data: this.snapshot(definition, e.prechange, e.position, tagNames),
        postchange_data: this.snapshot(definition, e.postchange, e.position, tagNames),
        revert_of: e.revertOf ?? null,
      };
    });
  }

  private snapshot(
    definition: ModelDefinition | undefined,
    snapshot: Record<string, unknown> | null,
    position: number,
    tagNames: Map<string, string>,
  ): Record<string, unknown> | null {
    const out = publicSnapshot(definition, snapshot);
    if (out === null || !definition) return out;
    for (const field of definition.fields) {
      if (field.type !== 'tags' || !Array.isArray(out[field.name])) continue;
      const ids = out[field.name] as unknown[];
      out[field.name] = ids.map((id) => tagNames.get(`${id}@${position}`) ?? String(id)).sort();
    }
    return out;
  }

  /** Names of the tags the snapshots list, as they were at each event's position. */
  private async tagNames(events: readonly ChangeEvent[]): Promise<Map<string, string>> {
    const wanted = new Map<string, number>(); // "tagId@position" → the tag's event position
    for (const e of events) {
      const definition = this.registry.tryGet(e.objectType);
      const tagFields = definition?.fields.filter((f) => f.type === 'tags') ?? [];
      if (tagFields.length === 0) continue;
      for (const snapshot of [e.prechange, e.postchange]) {
        for (const field of tagFields) {
          const ids = snapshot?.[field.name];
          if (!Array.isArray(ids)) continue;
          for (const id of ids) {
            if (typeof id !== 'number') continue;
            const key = `${id}@${e.position}`;
            if (wanted.has(key)) continue;
            wanted.set(key, this.audit.index.objectPositionAt(field.target ?? 'extras.tag', id, e.position));
          }
        }
      }
    }
    const names = new Map<string, string>();
    const positions = [...new Set([...wanted.values()].filter((p) => p > 0 && p <= this.audit.head))];
    if (positions.length === 0) return names;
    const byPosition = new Map<number, string>();
    for (const e of await this.audit.events(positions)) {
      const name = (e.postchange ?? e.prechange)?.name;
      if (typeof name === 'string') byPosition.set(e.position, name);
    }
    for (const [key, p] of wanted) {
      const name = byPosition.get(p);
      if (name !== undefined) names.set(key, name);
    }
    return names;
  }
}

/** Nested forms of objects that still exist, fetched in one batch per type. */
class NestedObjects {
  private readonly wanted = new Map<string, Set<number>>();
  private readonly rendered = new Map<string, unknown>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly context: RenderContext,
  ) {}

  want(type: string, id: number): void {
    let ids = this.wanted.get(type);
    if (!ids) this.wanted.set(type, (ids = new Set()));
    ids.add(id);
  }

  async load(): Promise<void> {
    await Promise.all(
      [...this.wanted].map(async ([type, ids]) => {
        const definition = this.registry.tryGet(type);
        if (!definition) return;
        const docs = await this.context.store.getMany(type, [...ids]);
        const rendered = await this.context.serializer.render(definition, docs, 'nested', {
          baseUrl: this.context.baseUrl,
        });
        // Object changes are readable more widely than the objects: never show a secret (a token's key) here.
        const secrets = definition.fields.filter((f) => f.secret).map((f) => f.name);
        docs.forEach((doc, i) => {
          const row = rendered[i]!;
          for (const name of secrets) delete row[name];
          this.rendered.set(`${type}:${doc.id}`, row);
        });
      }),
    );
  }

  get(type: string, id: number): unknown {
    return this.rendered.get(`${type}:${id}`) ?? null;
  }
}
