import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { changeEventSchema, type ChangeEvent } from './ChangeEvent.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

const ajv = new Ajv({ allErrors: false, strict: false });
addFormats(ajv);
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
