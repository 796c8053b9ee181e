import { type ChangeEvent, changeEventSchema } from './ChangeEvent.js';
import { createAjv } from './createAjv.js';

const ajv = createAjv({ allErrors: false });
const validate = ajv.compile<ChangeEvent>(changeEventSchema);

/**
 * The envelope fields every event of one request carries alike (its version, request, time,
 * user and stamps). The formats among them (UUID, date-time) cost most of a validation.
 */
const REQUEST_FIELDS: readonly string[] = ['v', 'requestId', 'time', 'user', 'idempotency', 'webhookDepth', 'revertOf'];

/** The envelope schema without the request's fields: what still differs from one event of a batch to the next. */
const validateOwnFields = ajv.compile<ChangeEvent>({
  ...changeEventSchema,
  $id: `${changeEventSchema.$id}#own-fields`,
  required: changeEventSchema.required.filter((name) => !REQUEST_FIELDS.includes(name)),
  properties: Object.fromEntries(
    Object.entries(changeEventSchema.properties).filter(([name]) => !REQUEST_FIELDS.includes(name)),
  ),
});

export class InvalidEventError extends Error {}

/**
 * Rejects a batch that does not match the envelope schema; used on append and on consume.
 * An event whose request fields are the very values of an event validated before it in the
 * batch (as a request's events share them: same strings, same user object) has only its own
 * fields validated; any other event is validated whole.
 */
export function assertValidEvents(events: readonly unknown[]): asserts events is ChangeEvent[] {
  let validated: object | null = null;
  for (const event of events) {
    const sameRequest: boolean = validated !== null && sharesRequestFields(event, validated);
    const check: typeof validate = sameRequest ? validateOwnFields : validate;
    if (!check(event)) {
      const e = check.errors?.[0];
      throw new InvalidEventError(`invalid change event: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim());
    }
    if (!sameRequest) validated = event as object;
  }
}

function sharesRequestFields(event: unknown, validated: object): boolean {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return false;
  const fields = event as Record<string, unknown>;
  const earlier = validated as Record<string, unknown>;
  for (const name of REQUEST_FIELDS) if (fields[name] !== earlier[name]) return false;
  return true;
}
