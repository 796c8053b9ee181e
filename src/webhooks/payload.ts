import type { ChangeAction, ChangeEvent } from '../events/ChangeEvent.js';

/** What a webhook's body, headers and URL are rendered from: NetBox's keys, in NetBox's order. */
export interface WebhookContext {
  event: 'created' | 'updated' | 'deleted';
  timestamp: string;
  model: string;
  username: string | null;
  request_id: string;
  data: Record<string, unknown>;
  snapshots: { prechange: Record<string, unknown> | null; postchange: Record<string, unknown> | null };
}

export const EVENT_NAMES: Record<ChangeAction, WebhookContext['event']> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
};

/**
 * The event's time as Python prints an aware datetime ('2021-03-09 17:55:33.968016+00:00'),
 * which is how NetBox's payload carries it. The change's own time, not the delivery's: a
 * retried delivery says when the change happened.
 */
export function pythonTimestamp(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
  if (!match) return iso;
  const fraction = (match[3] ?? '').slice(1).padEnd(6, '0').slice(0, 6);
  return `${match[1]} ${match[2]}${/^0+$/.test(fraction) ? '' : `.${fraction}`}+00:00`;
}

export function webhookContext(
  event: ChangeEvent,
  data: Record<string, unknown>,
  snapshots: WebhookContext['snapshots'],
): WebhookContext {
  return {
    event: EVENT_NAMES[event.action],
    timestamp: pythonTimestamp(event.time),
    model: event.objectType.split('.')[1],
    username: event.user?.username ?? null,
    request_id: event.requestId,
    data,
    snapshots,
  };
}
