/**
 * The write path every view that writes shares: the request's write context, the write itself
 * (or the answer of a retry the Idempotency-Key middleware recognised) and the written objects' rendering.
 */
import type { Context } from 'koa';

import type { WriteOutcome } from '../commands/recordEach.js';
import type { WriteContext, WriteTransaction } from '../commands/WriteCoordinator.js';
import { ValidationError } from '../errors/requestErrors.js';
import { nextTurn } from '../eventLoopTurns.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ReadDocument } from '../projections/ReadStore.js';
import { etagOf } from './conditionalWrite.js';
import { readModels } from './requestReadModels.js';
import type { Services } from './Services.js';

export function writeContext(ctx: Context, authorize?: WriteContext['authorize']): WriteContext {
  const { requestId, eventUser, idempotency, webhookDepth, branch } = ctx.state;
  return { requestId, user: eventUser ?? null, authorize, idempotency, webhookDepth, branch };
}

/**
 * Runs a write, unless this is a retry the Idempotency-Key middleware recognised from
 * the event log: then the objects that first request wrote are answered again, as they
 * are now (one deleted since is left out), and nothing is written.
 */
export async function runWrite(
  services: Services,
  ctx: Context,
  definition: ModelDefinition,
  action: 'create' | 'update' | 'delete',
  context: WriteContext,
  decide: (tx: WriteTransaction) => Promise<WriteOutcome | void>,
): Promise<WriteOutcome> {
  const replayOf: string | undefined = ctx.state.replayOf;
  if (replayOf && services.audit) {
    const events = await services.audit.requestEvents(replayOf);
    const ids = events.filter((e) => e.objectType === definition.key && e.action === action).map((e) => e.objectId);
    const unique = [...new Set(ids)];
    const byId = new Map((await readModels(services, ctx).store.getMany(definition.key, unique)).map((d) => [d.id, d]));
    const documents = unique.map((id) => byId.get(id)).filter((d): d is ReadDocument => d !== undefined);
    return { ids: documents.map((d) => d.id), documents, revealed: new Map() };
  }
  const { result } = await services.coordinator.execute(context, decide);
  return result ?? { ids: [], documents: [], revealed: new Map() };
}

/** Objects a write's answer renders per turn of the event loop (1,000 at once held reads for 10-20 ms). */
const WRITTEN_RENDER_CHUNK = 200;

/**
 * The objects as the write left them, rendered for its response: from its own events,
 * not the read models, which may already hold later writes. Related objects, counts and
 * hierarchy are read as they are now, as for any read.
 */
export async function writtenObjects(
  services: Services,
  definition: ModelDefinition,
  ctx: Context,
  outcome: WriteOutcome,
  { created }: { created: boolean },
) {
  const docs = outcome.documents;
  if (docs.length === 1) ctx.set('ETag', etagOf(docs[0]._pos));
  // One memo for every chunk: an object related to several is fetched and rendered once.
  const options = {
    baseUrl: ctx.state.baseUrl,
    omitAnnotated: created,
    revealed: outcome.revealed,
    memo: new Map<string, unknown>(),
  };
  const rendered: Record<string, unknown>[] = [];
  for (let i = 0; i < docs.length; i += WRITTEN_RENDER_CHUNK) {
    if (i > 0) await nextTurn();
    rendered.push(
      ...(await readModels(services, ctx).serializer.render(
        definition,
        docs.slice(i, i + WRITTEN_RENDER_CHUNK),
        'complete',
        options,
      )),
    );
  }
  return rendered;
}

export function requireBody(ctx: Context): unknown {
  const body = ctx.state.body;
  if (body === undefined) throw new ValidationError({ non_field_errors: ['No data provided'] });
  return body;
}
