import { publicSnapshot } from '../audit/renderChanges.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { ReadDocument } from '../projections/ReadStore.js';
import type { PayloadRenderer } from './WebhookWorker.js';

/** Renders read documents in their complete API form (the API's serializer, given by the caller). */
export interface CompleteRenderer {
  render(
    definition: ModelDefinition,
    docs: ReadDocument[],
    representation: 'complete',
    options: { baseUrl: string; omitAnnotated?: boolean },
  ): Promise<Record<string, unknown>[]>;
}

/**
 * The payload's parts from an event: `data` is the object as the event left it (as it was
 * before a delete) rendered by the API's serializer, its related objects as the read models
 * hold them now, without the list's counts (as a write's answer shows it); `snapshots` are the event's stored forms without secrets.
 */
export function payloadRenderer(
  registry: ModelRegistry,
  serializer: CompleteRenderer,
  baseUrl: string,
  unseal: (sealed: string) => string | null,
): PayloadRenderer {
  return {
    async data(event) {
      const definition = registry.tryGet(event.objectType);
      const stored = event.action === 'delete' ? event.prechange : event.postchange;
      if (!definition || !stored) return {};
      const base = { ...stored, id: event.objectId };
      const doc: ReadDocument = {
        ...base,
        ...(definition.hooks?.derive?.(base) ?? {}),
        display: event.objectRepr,
        _pos: event.position,
      };
      const [data] = await serializer.render(definition, [doc], 'complete', { baseUrl, omitAnnotated: true });
      // A webhook watching webhooks would carry their signing keys to receivers and into the saved queue.
      for (const field of definition.fields) if (field.secret && data) delete data[field.name];
      return data ?? {};
    },
    snapshots(event: ChangeEvent) {
      const definition = registry.tryGet(event.objectType);
      return {
        prechange: publicSnapshot(definition, event.prechange),
        postchange: publicSnapshot(definition, event.postchange),
      };
    },
    secret(webhook) {
      return typeof webhook.secret_sealed === 'string' ? (unseal(webhook.secret_sealed) ?? '') : '';
    },
  };
}
