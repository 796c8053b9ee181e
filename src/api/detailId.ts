import type { Context } from 'koa';

import { NotFoundError } from '../errors/requestErrors.js';

/** The id of a detail URL (/api/<app>/<path>/<id>/...): digits within the safe integers, else 404 as NetBox answers. */
export function detailId(ctx: Context): number {
  const raw = String(ctx.params.id);
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id)) throw new NotFoundError();
  return id;
}
