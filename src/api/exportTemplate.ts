/**
 * `?export=<name>` on a list view: the export template of that name attached to the
 * listed model renders every object the filters select (no paging), in the list's order,
 * and the answer is the rendered text with the template's MIME type, downloaded as
 * `netbox_<verbose name plural>.<extension>` when it is an attachment.
 */
import type { Context } from 'koa';
import { NotFoundError } from '../commands/errors.js';
import { servableFileExtension, servableMimeType } from '../models/extras/exportHeaderValues.js';
import type { ModelDefinition } from '../models/types.js';
import type { Query, ReadStore } from '../projections/ReadStore.js';
import { findInOrder } from './query/listPage.js';
import type { RenderOptions, Serializer } from './Serializer.js';
import { renderTemplate } from '../templates/jinjaTemplates.js';

export interface ExportRequest {
  store: ReadStore;
  serializer: Serializer;
  definition: ModelDefinition;
  filter: Query;
  query: URLSearchParams;
  options: RenderOptions;
}

/**
 * The objects as templates see them: their complete API form, in a list that also answers
 * `all()`, which templates written for Django's querysets call (`queryset|length` counts;
 * `count(x)` is the Jinja2 list's own).
 */
function querysetOf(objects: Record<string, unknown>[]): unknown[] {
  const queryset = [...objects];
  Object.defineProperty(queryset, 'all', { value: () => objects, enumerable: false });
  return queryset;
}

export async function answerExport(ctx: Context, name: string, request: ExportRequest): Promise<void> {
  const { store, serializer, definition, filter, query } = request;
  const [template] = await store.find('extras.exporttemplate', { name, content_types: definition.key }, { sort: { id: 1 }, limit: 1 });
  if (!template) throw new NotFoundError();
  const { docs } = await findInOrder(store, definition, filter, query.get('ordering'), { brief: false, skip: 0, limit: undefined });
  const objects = await serializer.render(definition, docs, 'complete', request.options);
  const output = renderTemplate(String(template.template_code ?? ''), { queryset: querysetOf(objects) }).replace(/\r\n/g, '\n');
  if (template.as_attachment !== false) {
    // A value stored before extensions were checked could break out of the quoted filename: none then.
    const stored = servableFileExtension(template.file_extension);
    const extension = stored ? `.${stored}` : '';
    ctx.set('Content-Disposition', `attachment; filename="netbox_${definition.verboseNamePlural.replace(/ /g, '_')}${extension}"`);
  }
  ctx.body = output;
  // As given: koa's ctx.type would add a charset to a text type that names none. A type stored before
  // types were checked (a CR/LF would fail every answer) is served as plain text.
  ctx.set('Content-Type', servableMimeType(template.mime_type) ?? 'text/plain; charset=utf-8');
  // The text is the objects' data as a template arranged it: a browser opening it inline must not
  // sniff it into HTML, nor run it (or anything it links) with this site's origin.
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
}
