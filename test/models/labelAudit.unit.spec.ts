import { existsSync, readFileSync } from 'node:fs';

import test from 'ava';

import { loadReference, type RefModel } from '../../scripts/netboxReference.js';
import { uniquenessError } from '../../src/commands/checkUniqueness.js';
import type { UniqueConstraint } from '../../src/models/modelDefinition.js';
import { registry } from '../../src/models/registry.js';

/**
 * Clients match on NetBox's messages, so the labels in them are NetBox's as declared: a
 * model's verbose name (the reference's `verbose_name`) and each field's verbose name
 * (netboxVerboseNames.json: those NetBox 3.4.10's models declare; any other field's is its
 * name with '_' → ' '). NetBox words a uniqueness error on one field with DRF's
 * UniqueValidator ('<verbose name> with this <field verbose name> already exists.', both as
 * declared) and one over several fields with Django's ('<Verbose name> with this <Field> and
 * <Field> already exists.', each capitalised), unless the constraint has its own message.
 * Every uniqueness rule of the reference must be declared (a constraint over lower(<field>)
 * as the field compared case-insensitively).
 */
const referenceDir =
  process.env.NETBOX_REFERENCE_DIR ?? new URL('../../../shared/reference/netbox-3.4/', import.meta.url).pathname;
const verboseNames = (
  JSON.parse(readFileSync(new URL('./netboxVerboseNames.json', import.meta.url), 'utf8')) as {
    models: Record<string, Record<string, string>>;
  }
).models;

function verboseName(model: string, field: string): string {
  return verboseNames[model]?.[field] ?? field.replace(/_/g, ' ');
}

const capfirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Django's get_text_list(labels, 'and'). */
function textList(labels: string[]): string {
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : labels[0]!;
}

/** NetBox's error for a broken uniqueness rule of the reference model. */
function netboxError(ref: RefModel, fields: string[], message?: string): { field: string; message: string } {
  if (fields.length === 1 && !message)
    return {
      field: fields[0]!,
      message: `${ref.verbose_name} with this ${verboseName(ref.model, fields[0]!)} already exists.`,
    };
  const labels = fields.map((f) => capfirst(verboseName(ref.model, f)));
  return {
    field: '__all__',
    message: message ?? `${capfirst(ref.verbose_name)} with this ${textList(labels)} already exists.`,
  };
}

const sameFields = (a: string[], b: string[]) => a.length === b.length && a.every((f, i) => f === b[i]);

/** Every uniqueness rule of a reference model: its unique fields, its unique_together sets and its constraints. */
function referenceRules(ref: RefModel): Array<{ fields: string[]; message?: string }> {
  const rules: Array<{ fields: string[]; message?: string }> = ref.fields
    .filter((f) => f.unique === true)
    .map((f) => ({ fields: [f.name] }));
  for (const c of ref.unique_constraints ?? [])
    rules.push({ fields: c.fields, ...(c.message ? { message: c.message } : {}) });
  for (const fields of ref.unique_together ?? [])
    if (!rules.some((r) => sameFields(r.fields, fields))) rules.push({ fields });
  return rules;
}

test("uniqueness messages name the model and its fields with NetBox 3.4's verbose names", (t) => {
  if (!existsSync(referenceDir)) {
    t.log(`skipped: the reference is not at ${referenceDir} (set NETBOX_REFERENCE_DIR)`);
    t.pass();
    return;
  }
  const reference = loadReference();
  const problems: string[] = [];
  let checked = 0;
  for (const definition of registry.all()) {
    const ref = reference.get(definition.key);
    if (!ref) continue;
    if (definition.verboseName !== ref.verbose_name)
      problems.push(`${definition.key}: verbose name ${definition.verboseName}, NetBox ${ref.verbose_name}`);
    for (const rule of referenceRules(ref)) {
      // a constraint over lower(<field>) is the field compared case-insensitively
      const fields = rule.fields.map((f) => /^lower\((.+)\)$/.exec(f)?.[1] ?? f);
      const lowered = fields.filter((f, i) => f !== rule.fields[i]);
      const ours: UniqueConstraint | undefined = (definition.unique ?? []).find((c) => sameFields(c.fields, fields));
      if (!ours) {
        problems.push(`${definition.key} [${rule.fields.join(', ')}]: NetBox's uniqueness rule is not declared`);
        continue;
      }
      checked++;
      if (lowered.length) {
        if (!lowered.every((f) => ours.caseInsensitive?.includes(f)))
          problems.push(`${definition.key} [${rule.fields.join(', ')}]: not case-insensitive on ${lowered.join(', ')}`);
        // Django words a constraint over an expression by its own message or its name, which the
        // reference does not give: the message is the model's test's (virtualization.e2e)
        continue;
      }
      const expected = netboxError(ref, rule.fields, rule.message);
      const actual = uniquenessError(definition, ours);
      if (actual.field !== expected.field || actual.message !== expected.message) {
        problems.push(
          `${definition.key} [${rule.fields.join(', ')}]: ${actual.field}: "${actual.message}", NetBox ${expected.field}: "${expected.message}"`,
        );
      }
    }
  }
  t.log(`${checked} uniqueness rules compared`);
  t.deepEqual(problems, []);
});
