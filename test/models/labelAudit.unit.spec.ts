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
 * A constraint over an expression (lower(<field>): the field compared case-insensitively) or
 * with a condition is worded by Django 4.1 with its own message or, lacking one, by its name
 * ('Constraint “<name>” is violated.'). Every uniqueness rule of the reference must be declared.
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

interface Rule {
  fields: string[];
  message?: string;
  /** Fields compared case-insensitively: the constraint is over lower(<field>), an expression. */
  caseInsensitive: string[];
  /** A condition (`tenant is null`) or an expression: Django words it by its own message or its name. */
  byConstraint: boolean;
}

/**
 * Every uniqueness rule of a reference model: its unique fields, its constraints and its
 * unique_together sets (where a constraint over lower(<field>) is written `lower(<field>)`).
 */
function referenceRules(ref: RefModel): Rule[] {
  const rules: Rule[] = ref.fields
    .filter((f) => f.unique === true)
    .map((f) => ({ fields: [f.name], caseInsensitive: [], byConstraint: false }));
  for (const c of ref.unique_constraints ?? []) {
    const caseInsensitive = c.case_insensitive ?? [];
    rules.push({
      fields: c.fields,
      ...(c.message ? { message: c.message } : {}),
      caseInsensitive,
      byConstraint: caseInsensitive.length > 0 || c.condition !== undefined,
    });
  }
  for (const listed of ref.unique_together ?? []) {
    const fields = listed.map((f) => /^lower\((.+)\)$/.exec(f)?.[1] ?? f);
    const caseInsensitive = fields.filter((f, i) => f !== listed[i]);
    if (!rules.some((r) => sameFields(r.fields, fields)))
      rules.push({ fields, caseInsensitive, byConstraint: caseInsensitive.length > 0 });
  }
  return rules;
}

/** Django's words for a constraint over an expression or with a condition, without a message of its own. */
const CONSTRAINT_NAMED = /^Constraint “([a-z0-9_]+)” is violated\.$/;

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
      const ours: UniqueConstraint | undefined = (definition.unique ?? []).find((c) =>
        sameFields(c.fields, rule.fields),
      );
      const name = `${definition.key} [${rule.fields.join(', ')}]`;
      if (!ours) {
        problems.push(`${name}: NetBox's uniqueness rule is not declared`);
        continue;
      }
      checked++;
      if (!rule.caseInsensitive.every((f) => ours.caseInsensitive?.includes(f)))
        problems.push(`${name}: not case-insensitive on ${rule.caseInsensitive.join(', ')}`);
      const actual = uniquenessError(definition, ours);
      if (rule.byConstraint && !rule.message) {
        // neither the constraint's own message nor its name is in the reference (a rule's text may
        // quote the message): never the field form, and a name is NetBox's <app>_<model>_...
        const named = CONSTRAINT_NAMED.exec(actual.message)?.[1];
        if (
          actual.field !== '__all__' ||
          ours.message === undefined ||
          (named !== undefined && !named.startsWith(`${definition.app}_${definition.model}_`))
        )
          problems.push(
            `${name}: ${actual.field}: "${actual.message}", NetBox __all__: the constraint's message or "Constraint “<its name>” is violated."`,
          );
        continue;
      }
      const expected = netboxError(ref, rule.fields, rule.message);
      if (actual.field !== expected.field || actual.message !== expected.message) {
        problems.push(`${name}: ${actual.field}: "${actual.message}", NetBox ${expected.field}: "${expected.message}"`);
      }
    }
  }
  t.log(`${checked} uniqueness rules compared`);
  t.deepEqual(problems, []);
});
