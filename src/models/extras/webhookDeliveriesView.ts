import type { DetailView } from '../detailEndpoints.js';

/** One delivery of one change event to one webhook, as the delivery worker records it. */
export interface WebhookDelivery {
  /** The log position of the change event delivered. */
  position: number;
  event_id: string;
  request_id: string;
  /** 'created' | 'updated' | 'deleted', as the payload names the event. */
  event: string;
  object_type: string;
  object_id: number;
  /** 'pending' (not yet accepted, retried), 'delivered' (a 2xx answer) or 'failed' (gave up after the last attempt). */
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The receiver's last HTTP status, null when it never answered. */
  last_status_code: number | null;
  last_error: string | null;
  last_attempt: string | null;
  next_attempt: string | null;
}

/** Where the deliveries view reads the records from: kept by the delivery worker, beside the read models. */
export interface WebhookDeliveryRecords {
  /** A webhook's deliveries, newest event first. */
  deliveries(webhookId: number): WebhookDelivery[];
}

/** The name the worker's records are offered under to detail views. */
export const WEBHOOK_DELIVERIES_SOURCE = 'webhook-deliveries';

const deliverySchema = {
  type: 'object',
  properties: {
    position: { type: 'integer', description: 'log position of the change event' },
    event_id: { type: 'string', format: 'uuid' },
    request_id: { type: 'string', format: 'uuid' },
    event: { type: 'string', enum: ['created', 'updated', 'deleted'] },
    object_type: { type: 'string' },
    object_id: { type: 'integer' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    last_attempt: { type: ['string', 'null'], format: 'date-time' },
    next_attempt: { type: ['string', 'null'], format: 'date-time' },
  },
};

/** `/api/extras/webhooks/<id>/deliveries/`: the webhook's delivery records, paged, newest first (read-only). */
export const webhookDeliveriesView: DetailView = {
  path: 'deliveries',
  summary: "The webhook's deliveries, newest change first: status, attempts, last error and last attempt time of each.",
  parameters: [
    {
      name: 'status',
      description: 'only deliveries in this status (pending, delivered, failed)',
      schema: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    },
    { name: 'limit', description: 'number of results to return per page', schema: { type: 'integer' } },
    { name: 'offset', description: 'the initial index from which to return the results', schema: { type: 'integer' } },
  ],
  responses: {
    'application/json': {
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer' },
        next: { type: ['string', 'null'], format: 'uri' },
        previous: { type: ['string', 'null'], format: 'uri' },
        results: { type: 'array', items: deliverySchema },
      },
    },
  },
  async respond(obj, request) {
    const records = request.source?.(WEBHOOK_DELIVERIES_SOURCE) as WebhookDeliveryRecords | undefined;
    let deliveries = records ? records.deliveries(obj.id) : [];
    const status = request.query.get('status');
    if (status !== null) {
      if (!['pending', 'delivered', 'failed'].includes(status))
        request.invalid({ status: [`Select a valid choice. ${status} is not one of the available choices.`] });
      deliveries = deliveries.filter((d) => d.status === status);
    }
    return { body: request.paginate(deliveries) };
  },
};
