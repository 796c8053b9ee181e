/**
 * `?export=<name>` on a list view: the export template of that name attached to the
 * listed model renders every object the filters select (no paging), in the list's order,
 * and the answer is the rendered text with the template's MIME type, downloaded as
 * `netbox_<verbose name plural>.<extension>` when it is an attachment.
 */
import type { Context } from 'koa';

import { NotFoundError } from '../errors/requestErrors.js';
import { servableFileExtension, servableMimeType } from '../models/extras/exportHeaderValues.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { Query, ReadStore } from '../projections/ReadStore.js';
import { TemplateBusyError, TemplateError, TemplateLimitError } from '../templates/TemplateError.js';
import type { TemplateRenderer } from '../templates/TemplateRenderer.js';
import { findInOrder } from './query/listPage.js';
import type { RenderOptions } from './renderOptions.js';
import type { Serializer } from './Serializer.js';

export interface ExportRequest {
  store: ReadStore;
  serializer: Serializer;
  definition: ModelDefinition;
  filter: Query;
  query: URLSearchParams;
  options: RenderOptions;
  templates: TemplateRenderer;
}

/**
 * The template over the objects as templates see them: their complete API form, in a list
 * (`queryset`) that also answers `all()`, which templates written for Django's querysets call.
 * A template that fails or runs past a limit is the client's 400, in the words NetBox's own
 * export view uses; a renderer pool that is full is a 503 to retry.
 */
async function renderExport(
  ctx: Context,
  templates: TemplateRenderer,
  name: string,
  code: string,
  objects: unknown[],
): Promise<string | null> {
  try {
    const [output] = await templates.render({
      templates: [{ name, code }],
      context: { queryset: objects },
      querysets: ['queryset'],
    });
    return output!;
  } catch (error) {
    if (error instanceof TemplateBusyError) {
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.body = { detail: error.message };
      return null;
    }
    if (!(error instanceof TemplateError)) throw error;
    const limit =
      error instanceof TemplateLimitError
        ? ' (the limit is set by the service: see TEMPLATE_TIMEOUT and TEMPLATE_MEMORY_MB)'
        : '';
    ctx.status = 400;
    ctx.body = {
      detail: `There was an error rendering the selected export template (${name}): ${error.message}${limit}`,
    };
    return null;
  }
}

export async function answerExport(ctx: Context, name: string, request: ExportRequest): Promise<void> {
  const { store, serializer, definition, filter, query, templates } = request;
  const [template] = await store.find(
    'extras.exporttemplate',
    { name, content_types: definition.key },
    { sort: { id: 1 }, limit: 1 },
  );
  if (!template) throw new NotFoundError();
  const { docs } = await findInOrder(store, definition, filter, query.get('ordering'), {
    brief: false,
    skip: 0,
    limit: undefined,
  });
  const objects = await serializer.render(definition, docs, 'complete', request.options);
  const rendered = await renderExport(ctx, templates, name, String(template.template_code ?? ''), objects);
  if (rendered === null) return;
  const output = rendered.replace(/\r\n/g, '\n');
  if (template.as_attachment !== false) {
    // A value stored before extensions were checked could break out of the quoted filename: none then.
    const stored = servableFileExtension(template.file_extension);
    const extension = stored ? `.${stored}` : '';
    ctx.set(
      'Content-Disposition',
      `attachment; filename="netbox_${definition.verboseNamePlural.replace(/ /g, '_')}${extension}"`,
    );
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
