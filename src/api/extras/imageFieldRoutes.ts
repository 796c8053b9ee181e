import { readFile } from 'node:fs/promises';
import path from 'node:path';

import Router from '@koa/router';
import type { Context, Next } from 'koa';

import { createObjects } from '../../commands/createObjects.js';
import { updateObjects } from '../../commands/updateObjects.js';
import { NotFoundError } from '../../errors/requestErrors.js';
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import { imageFieldsOf, mediaPath } from '../../models/imageFields.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { ifMatchPreconditions } from '../conditionalWrite.js';
import { detailId } from '../detailId.js';
import { assertInScope, viewScope, writeGuard, writeScope } from '../permissions.js';
import { and } from '../query/ListQueryCompiler.js';
import type { Services } from '../Services.js';
import { runWrite, writeContext, writtenObjects } from '../writePath.js';
import { imageDirectory, isStoredImageName, UPLOADED_FILE_POLICY } from './imageFiles.js';
import { readMultipartRequest } from './multipartRequest.js';
import { type OfferedUpload, offerUploadedImage, withdrawUploads } from './offerUploadedImage.js';

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif' };

/**
 * Multipart writes of every model with image fields (a device type's front and rear
 * images): POST to the list, PUT or PATCH to an object, with the fields as form parts
 * and each image as a file part named after its field, as pynetbox sends them. Other
 * media types go on to the JSON routes. The files are served where the fields' URLs
 * point, to whoever may read an object showing them. Derived from the registry: a
 * model declaring an image field needs nothing here.
 */
export function imageFieldRoutes(services: Services): Router {
  const router = new Router();
  const served = new Map<string, Array<{ definition: ModelDefinition; field: FieldDefinition }>>();
  for (const definition of services.registry.all()) {
    const fields = imageFieldsOf(definition);
    if (fields.length === 0) continue;
    const list = `/api/${definition.app}/${definition.path}/`;
    router.post(list, (ctx, next) => uploadView(services, definition, fields, ctx, next, 'create'));
    router.put(`${list}:id/`, (ctx, next) => uploadView(services, definition, fields, ctx, next, 'put'));
    router.patch(`${list}:id/`, (ctx, next) => uploadView(services, definition, fields, ctx, next, 'patch'));
    for (const field of fields) {
      const directory = field.image!.directory;
      served.set(directory, [...(served.get(directory) ?? []), { definition, field }]);
    }
  }
  for (const [directory, showing] of served) {
    router.get(`${mediaPath(directory)}:file`, (ctx) => mediaView(services, directory, showing, ctx));
    router.head(`${mediaPath(directory)}:file`, (ctx) => mediaView(services, directory, showing, ctx));
  }
  return router;
}

async function uploadView(
  services: Services,
  definition: ModelDefinition,
  fields: FieldDefinition[],
  ctx: Context,
  next: Next,
  mode: 'create' | 'put' | 'patch',
) {
  if (!ctx.is('multipart/form-data')) return next();
  const action = mode === 'create' ? 'add' : 'change';
  const scope = await writeScope(ctx, definition, action);
  const id = mode === 'create' ? null : detailId(ctx);
  if (id !== null) await assertInScope(services.store, definition, scope, id);
  const read = await readMultipartRequest(services, ctx);
  if (!read) return;

  const input = formFields(definition, read.fields);
  const uploads: OfferedUpload[] = [];
  let failure: unknown;
  try {
    for (const field of fields) {
      const file = read.files.find((f) => f.field === field.name);
      if (!file) continue;
      const token = await offerUploadedImage(services, field.name, file, field.image!.directory);
      uploads.push({ token, directory: field.image!.directory });
      input[field.name] = token;
    }
    if (id === null) {
      const context = writeContext(ctx, writeGuard(ctx, definition, 'add'));
      const result = await runWrite(services, ctx, definition, 'create', context, (tx) =>
        createObjects(services.commands, tx, definition, [input], { bulk: false }),
      );
      const [rendered] = await writtenObjects(services, definition, ctx, result, { created: true });
      ctx.status = 201;
      ctx.set('Location', services.serializer.url(definition, ctx.state.baseUrl, result.ids[0]));
      ctx.body = rendered;
    } else {
      const preconditions = ifMatchPreconditions(ctx, [id]);
      const context = writeContext(ctx, writeGuard(ctx, definition, 'change', [id]));
      const result = await runWrite(services, ctx, definition, 'update', context, (tx) =>
        updateObjects(services.commands, tx, definition, [{ id, input }], {
          mode: mode as 'put' | 'patch',
          bulk: false,
          preconditions,
        }),
      );
      const [rendered] = await writtenObjects(services, definition, ctx, result, { created: false });
      ctx.body = rendered;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await withdrawUploads(services, uploads, failure);
  }
}

/**
 * Form fields are text: they are read as the model's fields expect them (ids and numbers
 * as numbers, booleans, '' as null where null is allowed).
 */
export function formFields(definition: ModelDefinition, fields: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = definition.fields.find((f) => f.name === name);
    const text = value.trim();
    if ((field?.type === 'integer' || field?.type === 'fk') && /^-?\d+$/.test(text)) input[name] = Number(text);
    else if (field?.type === 'decimal' && text !== '' && Number.isFinite(Number(text))) input[name] = Number(text);
    else if (field?.type === 'boolean' && /^(true|false)$/i.test(text)) input[name] = text.toLowerCase() === 'true';
    else if (field?.nullable && !field.blank && text === '') input[name] = null;
    else if (field?.image && text === '') input[name] = null;
    else input[name] = value;
  }
  return input;
}

/** A stored image, to whoever may read an object of a model whose image field shows it. */
async function mediaView(
  services: Services,
  directory: string,
  showing: Array<{ definition: ModelDefinition; field: FieldDefinition }>,
  ctx: Context,
) {
  const file = String(ctx.params.file);
  if (!isStoredImageName(file)) throw new NotFoundError();
  let shown = false;
  for (const { definition, field } of showing) {
    const scope = await viewScope(ctx, services.config, definition);
    if ((await services.store.find(definition.key, and(scope, { [field.name]: file }), { limit: 1 })).length) {
      shown = true;
      break;
    }
  }
  if (!shown) throw new NotFoundError();
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(imageDirectory(services.config.dataDir, directory), file));
  } catch {
    throw new NotFoundError();
  }
  ctx.type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.set('Content-Security-Policy', UPLOADED_FILE_POLICY);
  ctx.body = bytes;
}
