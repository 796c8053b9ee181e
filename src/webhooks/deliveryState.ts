import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';

import type { ResumePoint } from '../events/EventLog.js';
import type { WebhookDelivery } from '../models/extras/webhookDeliveriesView.js';
import type { WebhookContext } from './payload.js';

/** A delivery still to make: its record, and the context its request is rendered from at each attempt. */
export interface PendingDelivery extends WebhookDelivery {
  context: WebhookContext;
  /** The change's webhook depth (ChangeEvent.webhookDepth; absent in older states: 0); its request carries one more. */
  depth?: number;
}

/**
 * What the delivery worker keeps across restarts, written as one file atomically: the
 * last log position it has dispatched, the webhooks as of that position (stored forms,
 * secrets sealed), the deliveries not yet made, in log order per webhook, and the recent
 * finished ones. A position is saved only together with the deliveries it queued, so a
 * restart never skips a change; a delivery made but not yet saved as made is sent again.
 */
export interface DeliveryState {
  version: 1;
  position: number;
  /** Where the worker resumes reading a log that needs a cursor (EventLog.subscribe); added without a version change. */
  resume?: ResumePoint | null;
  webhooks: Record<string, Record<string, unknown>>;
  pending: Record<string, PendingDelivery[]>;
  finished: Record<string, WebhookDelivery[]>;
}

export async function loadDeliveryState(file: string): Promise<DeliveryState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const state = JSON.parse(text) as DeliveryState;
  if (state.version !== 1) throw new Error(`${path.basename(file)}: unknown version ${String(state.version)}`);
  return state;
}

/** Written beside, flushed, then renamed over the old file: a crash leaves the old state or the new one. */
export async function saveDeliveryState(file: string, state: DeliveryState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(state));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
