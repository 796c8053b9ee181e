import { type ChangeEvent, changeEventSchema } from './ChangeEvent.js';
import { createAjv } from './createAjv.js';

const ajv = createAjv({ allErrors: false });
const validate = ajv.compile<ChangeEvent>(changeEventSchema);

export class InvalidEventError extends Error {}

/** Rejects a batch that does not match the envelope schema; used on append and on consume. */
export function assertValidEvents(events: readonly unknown[]): asserts events is ChangeEvent[] {
  for (const event of events) {
    if (!validate(event)) {
      const e = validate.errors?.[0];
      throw new InvalidEventError(`invalid change event: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim());
    }
  }
}
