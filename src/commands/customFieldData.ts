import type { FieldErrors } from '../errors/fieldErrors.js';
import { addError } from '../errors/requestErrors.js';
import { customFieldsOf } from '../models/customFields/customFieldsOf.js';
import { checkCustomFieldValue, regexCheckOf, regexProblem } from '../models/customFields/customFieldValues.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { type PatternCheck, type PatternChecker, sharedPatternChecker } from '../models/values/patternChecks.js';
import { RequestPatternChecks } from '../models/values/requestPatternChecks.js';
import type { CommandEnvironment } from './CommandEnvironment.js';
import { pythonValue, resolveReference } from './resolveReference.js';

/**
 * Sent custom field data with its object references resolved to ids. This is a
 * check of the `custom_fields` field itself, made with the other fields' checks and
 * before the model's validation: a value naming no object is an error of `custom_fields`
 * ("Unknown related object(s): 5"), and the first such value ends the check, as in NetBox.
 * `null` and `[]` clear a field; names that are not custom fields are left to the model.
 */
export async function resolveCustomFieldObjects(
  registry: ModelRegistry,
  view: LookupView,
  definition: ModelDefinition,
  sent: Record<string, unknown> | undefined,
  errors: FieldErrors,
): Promise<Record<string, unknown> | undefined> {
  const field = definition.fields.find((f) => f.type === 'custom_fields');
  if (!field || !sent || errors[field.name]) return sent;
  const data = { ...sent };
  const objectFields = (await customFieldsOf(view, definition.key)).filter(
    (d) => d.type === 'object' || d.type === 'multiobject',
  );
  for (const custom of objectFields) {
    const name = String(custom.name);
    const value = data[name];
    if (
      value === undefined ||
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0 && custom.type === 'multiobject')
    )
      continue;
    const target = String(custom.object_type);
    const refs = custom.type === 'object' ? [value] : Array.isArray(value) ? value : [value];
    const ids: number[] = [];
    for (const ref of refs) {
      const resolved = registry.tryGet(target)
        ? await resolveReference(registry, view, target, ref)
        : { error: 'unknown type' };
      if ('error' in resolved) {
        addError(errors, field.name, `Unknown related object(s): ${pythonValue(value)}`);
        return sent;
      }
      ids.push(resolved.id);
    }
    data[name] = custom.type === 'object' ? ids[0]! : ids;
  }
  return data;
}

/**
 * Custom field data on write, its object references already resolved to ids
 * (resolveCustomFieldObjects). On create without the key every field gets its default;
 * otherwise the sent keys are merged into what is stored. Values are checked against
 * their definitions; the matches against validation_regex of the object's values go to
 * `patterns` together (cheap ones inline, the others off the event loop, once for the
 * object). Errors go under `__all__`, as NetBox's model validation reports them.
 */
export async function decideCustomFieldData(
  view: LookupView,
  definition: ModelDefinition,
  obj: StoredObject,
  sent: Record<string, unknown> | undefined,
  previous: StoredObject | null,
  errors: FieldErrors,
  patterns: PatternChecker,
): Promise<void> {
  const field = definition.fields.find((f) => f.type === 'custom_fields');
  if (!field) return;
  const defined = await customFieldsOf(view, definition.key);
  const byName = new Map(defined.map((d) => [String(d.name), d]));
  const data: Record<string, unknown> = { ...((previous?.[field.name] as Record<string, unknown> | undefined) ?? {}) };
  if (!previous && sent === undefined) {
    for (const d of defined) data[String(d.name)] = structuredClone(d.default ?? null);
  }
  // In the order sent, as NetBox reports them: a value's problem, or the regex check it awaits.
  const problems: Array<{ name: string; problem: string } | { name: string; check: number }> = [];
  const checks: PatternCheck[] = [];
  for (const [name, value] of Object.entries(sent ?? {})) {
    const custom = byName.get(name);
    if (!custom) {
      addError(errors, '__all__', `Unknown field name '${name}' in custom field data.`);
      continue;
    }
    if (
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0 && custom.type === 'multiobject')
    ) {
      data[name] = value === '' ? null : value;
      continue;
    }
    if (custom.type === 'object' || custom.type === 'multiobject') {
      data[name] = value; // ids: resolved with the field checks
      continue;
    }
    const problem = checkCustomFieldValue(custom, value);
    if (problem) problems.push({ name, problem });
    else data[name] = custom.type === 'decimal' ? Number(value) : value;
    const check = problem ? null : regexCheckOf(custom, value);
    if (check) problems.push({ name, check: checks.push(check) - 1 });
  }
  const verdicts = checks.length ? await patterns.matchAll(checks) : [];
  for (const entry of problems) {
    const problem = 'problem' in entry ? entry.problem : regexProblem(byName.get(entry.name)!, verdicts[entry.check]!);
    if (problem) addError(errors, '__all__', `Invalid value for custom field '${entry.name}': ${problem}`);
  }
  for (const d of defined) {
    if (!d.required) continue;
    const name = String(d.name);
    if (!(name in data)) addError(errors, '__all__', `Missing required custom field '${name}'.`);
    else if (data[name] === null || data[name] === '')
      addError(errors, '__all__', `Invalid value for custom field '${name}': Required field cannot be empty.`);
  }
  obj[field.name] = data;
}

/**
 * The validation_regex checks the items of a bulk request will need (their text values
 * acceptable otherwise), to be made together before the items are decided (RequestPatternChecks).
 */
export async function regexChecksOf(
  view: LookupView,
  definition: ModelDefinition,
  inputs: unknown[],
): Promise<PatternCheck[]> {
  const field = definition.fields.find((f) => f.type === 'custom_fields');
  if (!field) return [];
  const patterned = (await customFieldsOf(view, definition.key)).filter((d) => d.validation_regex);
  if (patterned.length === 0) return [];
  const checks: PatternCheck[] = [];
  for (const input of inputs) {
    const sent = (input as Record<string, unknown> | null)?.[field.name];
    if (!sent || typeof sent !== 'object') continue;
    for (const custom of patterned) {
      const value = (sent as Record<string, unknown>)[String(custom.name)];
      if (value === null || value === '' || checkCustomFieldValue(custom, value)) continue;
      const check = regexCheckOf(custom, value);
      if (check) checks.push(check);
    }
  }
  return checks;
}

/**
 * The environment a request of several items is decided in: its validation_regex checks
 * made together first, and none made after one reached a limit (RequestPatternChecks).
 * A single item's checks go together anyway (decideCustomFieldData).
 */
export async function withRequestPatternChecks(
  env: CommandEnvironment,
  view: LookupView,
  definition: ModelDefinition,
  inputs: unknown[],
): Promise<CommandEnvironment> {
  if (inputs.length < 2) return env;
  const patterns = new RequestPatternChecks(env.patterns ?? sharedPatternChecker());
  await patterns.prefetch(await regexChecksOf(view, definition, inputs));
  return { ...env, patterns };
}
