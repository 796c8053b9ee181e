/** Objects named by reference, rendered as they appear inside another object. */
import type { GenericListItem } from '../models/types.js';
import type { Services } from './Services.js';

/** The referenced objects' nested forms, each model's fetched once. */
export async function nestedForms(services: Services, baseUrl: string, refs: GenericListItem[], fields?: string[]): Promise<Array<Record<string, unknown> | null>> {
  const idsByType = new Map<string, Set<number>>();
  for (const ref of refs) {
    if (!idsByType.has(ref.object_type)) idsByType.set(ref.object_type, new Set());
    idsByType.get(ref.object_type)!.add(ref.object_id);
  }
  const rendered = new Map<string, Record<string, unknown>>();
  for (const [type, ids] of idsByType) {
    const definition = services.registry.tryGet(type);
    if (!definition) continue;
    const docs = await services.store.getMany(type, [...ids]);
    const options = { baseUrl };
    const forms = fields
      ? await services.serializer.render({ ...definition, brief: fields }, docs, 'brief', options)
      : await services.serializer.render(definition, docs, 'nested', options);
    docs.forEach((doc, i) => rendered.set(`${type}:${doc.id}`, forms[i]));
  }
  return refs.map((ref) => rendered.get(`${ref.object_type}:${ref.object_id}`) ?? null);
}
