import { readFile } from 'node:fs/promises';
import path from 'node:path';

import Router from '@koa/router';
import type { Context, Next } from 'koa';

import { createObjects } from '../../commands/createObjects.js';
import { NotFoundError, ValidationError } from '../../errors/requestErrors.js';
import { IMAGE_MEDIA_PATH } from '../../models/extras/imageattachment.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { viewScope, writeGuard, writeScope } from '../permissions.js';
import { and } from '../query/ListQueryCompiler.js';
import type { Services } from '../Services.js';
import { runWrite, writeContext, writtenObjects } from '../writePath.js';
import { imageDirectory, isStoredImageName, UPLOADED_FILE_POLICY } from './imageFiles.js';
import { readMultipartRequest } from './multipartRequest.js';
import { offerUploadedImage, withdrawUploads } from './offerUploadedImage.js';

const MODEL = 'extras.imageattachment';
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif' };

/**
 * Image uploads (a multipart/form-data POST of the attachment's fields with the file in
 * its `image` part) and the uploaded files, served where the attachments' `image` links
 * point. Mounted before the JSON body reader, which refuses other media types; a JSON
 * POST goes on to the generic create, which refuses it for want of a file.
 */
export function imageAttachmentRoutes(services: Services): Router {
  const router = new Router();
  const definition = services.registry.get(MODEL);
  router.post(`/api/${definition.app}/${definition.path}/`, (ctx, next) => uploadView(services, definition, ctx, next));
  router.get(`${IMAGE_MEDIA_PATH}:file`, (ctx) => mediaView(services, definition, ctx));
  router.head(`${IMAGE_MEDIA_PATH}:file`, (ctx) => mediaView(services, definition, ctx));
  return router;
}

async function uploadView(services: Services, definition: ModelDefinition, ctx: Context, next: Next) {
  if (!ctx.is('multipart/form-data')) return next();
  await writeScope(ctx, definition, 'add');
  const read = await readMultipartRequest(services, ctx);
  if (!read) return;

  const input = formInput(definition, read.fields);
  const file = read.files.find((f) => f.field === 'image');
  if (!file) throw new ValidationError({ image: ['No file was submitted.'] });
  // The file is durable before the event that names it is appended.
  const token = await offerUploadedImage(services, 'image', file);
  let failure: unknown;
  try {
    const context = writeContext(ctx, writeGuard(ctx, definition, 'add'));
    const result = await runWrite(services, ctx, definition, 'create', context, (tx) =>
      createObjects(services.commands, tx, definition, [{ ...input, image_upload: token }], { bulk: false }),
    );
    const [rendered] = await writtenObjects(services, definition, ctx, result, { created: true });
    ctx.status = 201;
    ctx.set('Location', services.serializer.url(definition, ctx.state.baseUrl, result.ids[0]));
    ctx.body = rendered;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await withdrawUploads(services, [{ token, directory: undefined }], failure);
  }
}

/**
 * Form fields are text: numbers and booleans are read as the model's fields expect them.
 * The upload token is the request's own, never the client's.
 */
export function formInput(definition: ModelDefinition, fields: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'image_upload' || name === 'image') continue;
    const field = definition.fields.find((f) => f.name === name);
    if (field?.type === 'integer' && /^-?\d+$/.test(value.trim())) input[name] = Number(value.trim());
    else if (field?.type === 'boolean' && /^(true|false)$/i.test(value)) input[name] = value.toLowerCase() === 'true';
    else input[name] = value;
  }
  return input;
}

/** An attachment's file, to whoever may read an attachment that shows it. */
async function mediaView(services: Services, definition: ModelDefinition, ctx: Context) {
  const file = String(ctx.params.file);
  if (!isStoredImageName(file)) throw new NotFoundError();
  const scope = await viewScope(ctx, services.config, definition);
  const [shown] = await services.store.find(definition.key, and(scope, { image_file: file }), { limit: 1 });
  if (!shown) throw new NotFoundError();
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(imageDirectory(services.config.dataDir), file));
  } catch {
    throw new NotFoundError();
  }
  ctx.type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.set('Content-Security-Policy', UPLOADED_FILE_POLICY);
  ctx.body = bytes;
}
